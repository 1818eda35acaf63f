#!/usr/bin/env python3
"""book.links: every page of the built book is there, and everything it points at too.

    check_links.py <html folder> --pages <book/*.md ...> --figures <chNN_name.svg ...>

Fails (exit 1), listing every problem, when:
  - a page of book/ has no HTML page (its name comes from the {#id} of its title);
  - an internal link (href), image (src), object (data) or stylesheet of any HTML page
    names a file that is not there, or an #anchor that its page does not define;
  - a page loads a script, stylesheet, image or frame from the network: the book must
    work offline (links to outside pages, <a href="https://...">, are fine);
  - a figure is not shown on its chapter's page (chNN_... on chapterNN_*.html), or is
    shown but was not drawn;
  - a folded part (<details>) has no <summary>: Doxygen cuts a <details> that holds
    several paragraphs into one per paragraph, each folded under "Details" (a page
    folds those with \\htmlonly[block]<details>...\\endhtmlonly instead);
  - a sample report that the build captured (--samples) shows on no page: a page that
    pulls one in with \\includedoc must show its text;
  - the front page's set-up block (index.md) is not the README's (--readme), line for
    line, or its "How you work through a chapter" leaves out a learner's tool.
Standard library only: CI installs python3 and nothing else for it.
"""

import argparse
import html.parser
import os
import re
import sys
import urllib.parse


class PageParser(html.parser.HTMLParser):
    """Collects the anchors a page defines and the references it makes."""

    # (tag, attribute) pairs that load a resource into the page, rather than link away.
    LOADS = {("img", "src"), ("script", "src"), ("object", "data"), ("iframe", "src"),
             ("embed", "src"), ("source", "src")}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.anchors = set()
        self.references = []  # (tag, kind, value, line)
        self.text = []
        self.details = 0
        self.summaries = 0
        self.rows = set()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        # A member's row in a file's summary (class "memitem:<anchor>"): Doxygen's
        # sidebar links a file's members to their rows, though it gives the row an
        # anchor only when the member has no detailed description of its own (that one
        # is on the namespace's page), and links an enum's values to anchors made of the
        # enum's and the value's ("a" and 32 hex digits each). Such a link still opens
        # the page that lists the member.
        for token in (attributes.get("class") or "").split():
            if token.startswith("memitem:"):
                self.rows.add(token[len("memitem:"):])
        self.details += tag == "details"
        self.summaries += tag == "summary"
        for name in ("id", "name"):
            if attributes.get(name):
                self.anchors.add(attributes[name])
        for attribute in ("href", "src", "data"):
            value = attributes.get(attribute)
            if value is None:
                continue
            if tag == "link" and attribute == "href":
                kind = "load"
            elif (tag, attribute) in self.LOADS:
                kind = "load"
            elif attribute == "href":
                kind = "link"
            else:
                continue
            self.references.append((tag, kind, value, self.getpos()[0]))

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def page_id(markdown_path):
    """The HTML name Doxygen gives a Markdown page: its {#id}, or index for the main page."""
    with open(markdown_path, encoding="utf-8") as page:
        first_line = page.readline()
    match = re.search(r"\{#([A-Za-z0-9_]+)\}", first_line)
    if os.path.basename(markdown_path) == "index.md":
        return "index"
    if not match:
        raise SystemExit(f"{markdown_path}: its title has no {{#id}}, so its page has no fixed name")
    return match.group(1)


def first_code_block(markdown):
    """The lines of the first ```sh block of a Markdown text, stripped."""
    match = re.search(r"^```sh\n(.*?)^```", markdown, re.S | re.M)
    return [line.strip() for line in match.group(1).splitlines()] if match else []


# What the front page's "How you work through a chapter" must name: the learner's tools.
WORKING_TOOLS = ("make check-chapter", "make check-all", "make reset-chapter", "WB_HINTS=1")


def front_page_agrees_with_readme(readme_path, pages):
    problems = []
    index_path = next((page for page in pages if os.path.basename(page) == "index.md"), None)
    if index_path is None:
        return ["no index.md among the pages"]
    with open(readme_path, encoding="utf-8") as readme, open(index_path, encoding="utf-8") as index:
        readme_text, index_text = readme.read(), index.read()
    readme_lines, index_lines = first_code_block(readme_text), first_code_block(index_text)
    if not readme_lines:
        problems.append("README.md: no set-up block (```sh) found")
    for line in readme_lines:
        if line not in index_lines:
            problems.append(f"index.md: the set-up block lacks the README's line: {line}")
    for line in index_lines:
        if line not in readme_lines:
            problems.append(f"index.md: the set-up block has a line the README's lacks: {line}")
    section = re.search(r"^## How you work through a chapter\n(.*?)(?=^## )", index_text, re.S | re.M)
    if section is None:
        problems.append("index.md: no section 'How you work through a chapter'")
    else:
        for tool in WORKING_TOOLS:
            if tool not in section.group(1):
                problems.append(f"index.md: 'How you work through a chapter' does not name {tool}")
    return problems


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("html")
    arguments.add_argument("--pages", nargs="+", required=True)
    arguments.add_argument("--figures", nargs="*", default=[])
    arguments.add_argument("--samples", nargs="*", default=[])
    arguments.add_argument("--readme", help="the README, whose set-up the front page must repeat")
    options = arguments.parse_args()
    root = os.path.realpath(options.html)
    if not os.path.isfile(os.path.join(root, "index.html")):
        print(f"no book at {root}: build it with `cmake --build <build> --target book`")
        return 1

    problems = []
    parsed = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(folder, name)
                parser = PageParser()
                with open(path, encoding="utf-8") as page:
                    parser.feed(page.read())
                parsed[path] = parser

    # The front page and the README tell the same set-up, and the front page's way
    # through a chapter names every tool a learner uses.
    if options.readme:
        problems += front_page_agrees_with_readme(options.readme, options.pages)

    # Every page of book/ was made.
    for markdown in options.pages:
        html_page = os.path.join(root, page_id(markdown) + ".html")
        if html_page not in parsed:
            problems.append(f"{os.path.basename(markdown)}: no page {os.path.basename(html_page)}")

    # Every reference resolves, offline.
    checked = 0
    for path, parser in sorted(parsed.items()):
        shown = os.path.relpath(path, root)
        for tag, kind, value, line in parser.references:
            url = urllib.parse.urlsplit(value)
            if url.scheme in ("http", "https", "ftp") or value.startswith("//"):
                if kind == "load":
                    problems.append(f"{shown}:{line}: <{tag}> loads {value} from the network")
                continue
            if url.scheme in ("mailto", "javascript", "data"):
                continue
            if url.scheme:
                problems.append(f"{shown}:{line}: <{tag}> points at {value}, which is not a file of the book")
                continue
            target = path if url.path == "" else os.path.normpath(
                os.path.join(os.path.dirname(path), urllib.parse.unquote(url.path)))
            checked += 1
            if not target.startswith(root + os.sep):
                problems.append(f"{shown}:{line}: <{tag}> points outside the book: {value}")
            elif not os.path.exists(target):
                problems.append(f"{shown}:{line}: <{tag}> points at {value}, which is not there")
            elif url.fragment and target in parsed and url.fragment not in parsed[target].anchors:
                problems.append(f"{shown}:{line}: <{tag}> points at #{url.fragment}, which "
                                f"{os.path.relpath(target, root)} does not define")

    # The sidebar's entries resolve too: Doxygen writes them into navtreedata.js and one
    # script per page with children. (navtreeindex*.js only maps the pages' own anchors
    # back to the tree, for its highlight, and names some that no page defines: a link
    # to them opens the right page at its top.)
    for name in sorted(os.listdir(root)):
        if not name.endswith(".js") or name.startswith("navtreeindex"):
            continue
        with open(os.path.join(root, name), encoding="utf-8") as script:
            entries = set(re.findall(r'"([\w.-]+\.html)(?:#([\w-]+))?"', script.read()))
        for page, anchor in sorted(entries):
            target = os.path.join(root, page)
            checked += 1
            if target not in parsed:
                problems.append(f"{name}: the sidebar points at {page}, which is not there")
            elif (anchor and anchor not in parsed[target].anchors
                  and anchor not in parsed[target].rows and anchor[:33] not in parsed[target].rows):
                problems.append(f"{name}: the sidebar points at {page}#{anchor}, which that page "
                                "does not define")

    # Each chapter page shows its figures, and each figure was drawn.
    chapter_pages = {}
    for path in parsed:
        match = re.fullmatch(r"chapter(\d\d)_\w+\.html", os.path.basename(path))
        if match:
            chapter_pages[match.group(1)] = path
    for figure in options.figures:
        match = re.fullmatch(r"ch(\d\d)_\w+\.svg", figure)
        if not match:
            problems.append(f"figure {figure}: not named chNN_..., so no page is known to show it")
            continue
        page = chapter_pages.get(match.group(1))
        if page is None:
            problems.append(f"figure {figure}: there is no page of chapter {int(match.group(1))}")
            continue
        shown = [value for tag, _, value, _ in parsed[page].references
                 if tag in ("img", "object") and value.split("#")[0] == figure]
        if not shown:
            problems.append(f"{os.path.basename(page)}: does not show its figure {figure}")
        if not os.path.isfile(os.path.join(root, figure)):
            problems.append(f"figure {figure}: not in the book (was it drawn?)")

    # Every folded part has its summary.
    for path, parser in sorted(parsed.items()):
        if parser.details != parser.summaries:
            problems.append(f"{os.path.relpath(path, root)}: {parser.details} folded parts "
                            f"(<details>) but {parser.summaries} summaries: Doxygen cut one "
                            "into paragraphs")

    # Every captured sample shows on a page, whole: its lines in order, as one block.
    texts = ["".join(parser.text) for parser in parsed.values()]
    for sample in options.samples:
        with open(sample, encoding="utf-8") as captured:
            lines = [line.rstrip() for line in captured
                     if line.strip() and not line.startswith(("\\code", "\\endcode"))]
        if not lines:
            problems.append(f"sample {os.path.basename(sample)}: empty")
        elif not any("\n".join(lines) in "\n".join(l.rstrip() for l in text.splitlines() if l.strip())
                     for text in texts):
            problems.append(f"sample {os.path.basename(sample)}: shown on no page")

    for problem in problems:
        print(problem)
    print(f"{len(parsed)} pages, {checked} internal links and images, "
          f"{len(options.figures)} figures, {len(options.samples)} samples: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
