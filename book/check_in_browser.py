#!/usr/bin/env python3
"""book.in_browser: opens every page of the built book in headless Chromium.

    check_in_browser.py <html folder> --pages <book/*.md ...> --screenshots <folder>

Fails (exit 1), naming the page and the problem, when a page:
  - does not render (no title, or next to no text in its contents);
  - logs an error to the console, throws, or fails to load a resource;
  - shows an image or figure that did not load (an <img> with naturalWidth 0, an SVG
    <object> with no SVG document in it);
  - has a code block, sample or table wider than its box, whose line ends would hide
    behind a scroll bar;
  - shows markup as text (an escaped <tt> in a table of contents, say);
  - has a figure with a label cut at its edge, or drawn so small that its labels cannot
    be read without a link under it that opens it at full size;
  - has a sidebar entry cut off at the sidebar's edge;
and when the front page's sidebar does not list every page of book/ (--pages), served
or opened as a file.
Folded parts (<details>) are opened before the checks, so that what they hide is
checked too. It keeps screenshots of the front page and of chapter 1's page, as they
first appear, in --screenshots (front_page.png, chapter01.png).

Where Chromium is missing it prints "skipped: ..." and exits 77, which ctest reports as
skipped (SKIP_RETURN_CODE), never as passed.

The pages are served over HTTP on 127.0.0.1 from a server inside this script, so that
the browser treats them as one site (an SVG <object> can then be inspected) and every
request for a file that is not there is seen here too. Chromium is driven through its
DevTools protocol over a pipe (--remote-debugging-pipe): standard library only.
"""

import argparse
import base64
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77
VIEWPORT = {"width": 1280, "height": 900}
LOAD_TIMEOUT_S = 30
SETTLE_TIMEOUT_S = 10
SCREENSHOTS = {"index.html": "front_page.png", "chapter01_copy.html": "chapter01.png"}


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the book; remembers every request that found no file."""

    missing = []

    def do_GET(self):
        # Browsers ask every site for an icon; the book has none and needs none.
        if self.path == "/favicon.ico":
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass

    def send_error(self, code, message=None, explain=None):
        QuietHandler.missing.append(f"{code} {self.path}")
        super().send_error(code, message, explain)


class Browser:
    """Chromium, headless, driven over --remote-debugging-pipe.

    The protocol is JSON messages, each ended by a NUL byte: commands on the browser's
    fd 3, answers and events on its fd 4.
    """

    def __init__(self, executable, profile, log):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def give_pipes():  # in the child: the pipes on the fds the protocol names
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        arguments = [
            executable, "--headless", "--remote-debugging-pipe",
            # CI runs as root, where Chromium's sandbox cannot start.
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--hide-scrollbars", "--mute-audio", f"--user-data-dir={profile}",
            f"--window-size={VIEWPORT['width']},{VIEWPORT['height']}", "about:blank",
        ]
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=log,
                                        stderr=log, preexec_fn=give_pipes, close_fds=False)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def _receive(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe (see its log)")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None, timeout=LOAD_TIMEOUT_S):
        self.next_id += 1
        command = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            command["sessionId"] = session
        os.write(self.to_browser, json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            message = self._receive(deadline)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method, session, timeout):
        """The first event `method` of the session not yet seen, or None at the timeout."""
        deadline = time.monotonic() + timeout
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(index)
            try:
                self.events.append(self._receive(deadline))
            except TimeoutError:
                return None

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)


# Run in the page once it has loaded: true once the scripts have done their work (the
# sidebar drawn, every image and figure finished, one way or the other).
SETTLED = """
(() => {
  if (document.readyState !== 'complete') return false;
  if (window.jQuery && jQuery(':animated').length) return false;  // the sidebar unfolding
  if (document.getElementById('nav-tree-contents') &&
      document.querySelectorAll('#nav-tree-contents a').length === 0) return false;
  for (const image of document.images) if (!image.complete) return false;
  for (const figure of document.querySelectorAll('object')) {
    if (figure.closest('details:not([open])')) continue;  // folded: loads once opened
    const svg = figure.contentDocument;
    // (A figure starts with an empty about:blank document of its own, already complete.)
    if (!svg || svg.readyState !== 'complete' || svg.URL === 'about:blank') return false;
  }
  return true;
})()
"""

# Run in the page with every <details> open: what is wrong with it, as a list of lines.
PROBLEMS = """
(() => {
  const problems = [];
  const contents = document.querySelector('div.contents') || document.body;
  if (!document.title) problems.push('it has no title');
  if ((contents.innerText || '').trim().length < 10)
    problems.push('it shows next to no text: did it render?');
  // Markup shown as text: a tag that Doxygen passed through escaped (a code span in a
  // heading reaches the table of contents as "<tt>...</tt>").
  const leaked = (document.body.innerText || '').match(
      /<\/?(tt|code|b|em|strong|p|br|div|span|details|summary)>/);
  if (leaked) problems.push('it shows markup as text: ' + leaked[0]);
  for (const image of document.images) {
    if (!image.complete || image.naturalWidth === 0)
      problems.push('an image did not load: ' + image.getAttribute('src'));
  }
  for (const figure of document.querySelectorAll('object')) {
    const svg = figure.contentDocument;
    const root = svg && svg.documentElement;
    if (!root || root.nodeName.toLowerCase() !== 'svg')
      problems.push('a figure did not load: ' + figure.getAttribute('data'));
    else if (figure.getBoundingClientRect().width < 10)
      problems.push('a figure has no width: ' + figure.getAttribute('data'));
  }
  // Figures: every label inside the drawing, and drawn no smaller than a reader can read.
  for (const figure of document.querySelectorAll('object')) {
    const svg = figure.contentDocument && figure.contentDocument.documentElement;
    if (!svg || svg.nodeName.toLowerCase() !== 'svg' || figure.closest('details:not([open])')) continue;
    const name = figure.getAttribute('data');
    const box = svg.viewBox && svg.viewBox.baseVal;
    const width = box && box.width ? box.width : svg.getBBox().width;
    const height = box && box.height ? box.height : svg.getBBox().height;
    let smallest = Infinity;
    for (const label of svg.querySelectorAll('text')) {
      const size = parseFloat(getComputedStyle(label).fontSize);
      if (size) smallest = Math.min(smallest, size);
      const extent = label.getBBox();
      if (extent.x < -0.5 || extent.x + extent.width > width + 0.5 ||
          extent.y < -0.5 || extent.y + extent.height > height + 0.5)
        problems.push('a label of ' + name + ' is cut at its edge: "' + label.textContent.slice(0, 60) + '"');
    }
    // Drawn smaller than readable (8.5 px), it needs a link that opens it at full size,
    // right under it; at full size, every label must be readable.
    const scale = figure.getBoundingClientRect().width / width;
    const holder = figure.closest('div.image') || figure;
    const after = holder.nextElementSibling;
    const full_size = after && Array.from(after.querySelectorAll('a')).some(
        link => (link.getAttribute('href') || '') === name);
    // (7 px: the numbers inside a figure's cells; the drawing opened on its own zooms.)
    if (smallest < 7)
      problems.push(name + ' has labels ' + smallest + ' px high even at full size: too small to read');
    else if (smallest * scale < 8.5 && !full_size)
      problems.push(name + ' is drawn at ' + Math.round(scale * 100) + '% of its size, so its smallest ' +
                    'labels are ' + (smallest * scale).toFixed(1) + ' px high, and no link under it ' +
                    'opens it at full size');
  }
  // The sidebar: an entry cut off behind a scroll bar cannot be read.
  const tree = document.getElementById('nav-tree');
  if (tree) {
    for (const link of tree.querySelectorAll('a')) {
      const item = link.getBoundingClientRect(), frame = tree.getBoundingClientRect();
      if (item.width > 0 && item.right > frame.right + 1)
        problems.push('the sidebar entry "' + link.innerText.trim().slice(0, 60) + '" is cut off at the ' +
                      'edge of the sidebar (' + Math.round(item.right - frame.right) + ' px hidden)');
    }
  }
  // Anything that scrolls sideways inside the page (a code block, a sample, a table's
  // body) hides the ends of its lines: the reader must see them without scrolling.
  for (const box of contents.querySelectorAll('*')) {
    const overflow = getComputedStyle(box).overflowX;
    if (!['auto', 'scroll', 'hidden'].includes(overflow) || box.clientWidth === 0) continue;
    if (box.scrollWidth > box.clientWidth + 1) {
      const inside = box.closest('table') ? 'a table' :
                     box.closest('.fragment') ? 'a code block' : 'a <' + box.nodeName.toLowerCase() + '>';
      const text = (box.innerText || '').trim().split('\\n')[0].slice(0, 60);
      problems.push(inside + ' is wider than its box (' + box.scrollWidth + ' > ' +
                    box.clientWidth + ' px), so its ends hide: "' + text + '"');
    }
  }
  return problems;
})()
"""

# The pages the sidebar links to, by file name.
SIDEBAR = """
Array.from(document.querySelectorAll('#nav-tree-contents a'))
     .map(link => (link.getAttribute('href') || '').split('#')[0].split('/').pop())
"""


def page_name(markdown_path):
    if os.path.basename(markdown_path) == "index.md":
        return "index.html"
    with open(markdown_path, encoding="utf-8") as page:
        match = re.search(r"\{#([A-Za-z0-9_]+)\}", page.readline())
    if not match:
        raise SystemExit(f"{markdown_path}: its title has no {{#id}}")
    return match.group(1) + ".html"


def evaluate(browser, session, expression):
    result = browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                          session=session)
    if "exceptionDetails" in result:
        raise RuntimeError(f"the check itself failed: {result['exceptionDetails']}")
    return result["result"].get("value")


def console_errors(events, session):
    """What the page logged as an error since the last call, as lines."""
    errors = []
    for event in events:
        if event.get("sessionId") != session:
            continue
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            description = details.get("exception", {}).get("description") or details.get("text")
            errors.append(f"a script threw: {description}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(argument.get("value", argument.get("description", "")))
                            for argument in params.get("args", []))
            errors.append(f"console error: {text}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            errors.append(f"console error: {entry.get('text')} {entry.get('url', '')}".rstrip())
    return errors


def check_page(browser, session, base, name, screenshots):
    browser.events.clear()
    QuietHandler.missing.clear()
    browser.send("Page.navigate", {"url": base + name}, session=session)
    if browser.wait_for("Page.loadEventFired", session, LOAD_TIMEOUT_S) is None:
        return [f"did not load within {LOAD_TIMEOUT_S} s"]
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while not evaluate(browser, session, SETTLED):
        if time.monotonic() > deadline:
            break  # the checks below say what is still missing
        time.sleep(0.05)
    if name in SCREENSHOTS:
        # As a reader first sees the page: at the top, everything folded.
        shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)
        with open(os.path.join(screenshots, SCREENSHOTS[name]), "wb") as file:
            file.write(base64.b64decode(shot["data"]))
    evaluate(browser, session, "document.querySelectorAll('details').forEach(d => d.open = true)")
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while not evaluate(browser, session, SETTLED) and time.monotonic() < deadline:
        time.sleep(0.05)
    problems = evaluate(browser, session, PROBLEMS)
    problems += console_errors(browser.events, session)
    problems += [f"asked the server for a file that is not there: {miss}"
                 for miss in QuietHandler.missing]
    return problems


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("html")
    arguments.add_argument("--pages", nargs="+", required=True)
    arguments.add_argument("--screenshots", required=True)
    options = arguments.parse_args()

    chromium = find_chromium()
    if chromium is None:
        print("skipped: sudo apt-get install chromium")
        return SKIP
    root = os.path.realpath(options.html)
    if not os.path.isfile(os.path.join(root, "index.html")):
        print(f"no book at {root}: build it with `cmake --build <build> --target book`")
        return 1
    os.makedirs(options.screenshots, exist_ok=True)
    for stale in SCREENSHOTS.values():
        if os.path.exists(os.path.join(options.screenshots, stale)):
            os.remove(os.path.join(options.screenshots, stale))
    book_pages = [page_name(markdown) for markdown in options.pages]
    pages = sorted(name for name in os.listdir(root) if name.endswith(".html"))

    log_path = os.path.join(options.screenshots, "chromium.log")
    failures = {}
    with tempfile.TemporaryDirectory(prefix="book-browser-") as profile, \
            open(log_path, "wb") as log:
        # The browser first, while this process has one thread (it forks).
        browser = Browser(chromium, profile, log)
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(QuietHandler, directory=root))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            target = browser.send("Target.createTarget", {"url": "about:blank"})
            session = browser.send("Target.attachToTarget",
                                   {"targetId": target["targetId"], "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                browser.send(f"{domain}.enable", session=session)
            browser.send("Emulation.setDeviceMetricsOverride",
                         dict(VIEWPORT, deviceScaleFactor=1, mobile=False), session=session)
            for name in pages:
                problems = check_page(browser, session, base, name, options.screenshots)
                if name == "index.html":
                    evaluate(browser, session, "window.scrollTo(0, 0)")
                    listed = set(evaluate(browser, session, SIDEBAR) or [])
                    problems += [f"the sidebar does not list the page {page}"
                                 for page in book_pages if page not in listed]
                if problems:
                    failures[name] = problems
            # A reader opens the book from its folder (file://), where scripts load under
            # other rules than from a server: the front page's sidebar must work there too.
            browser.events.clear()
            front = "file://" + os.path.join(root, "index.html")
            browser.send("Page.navigate", {"url": front}, session=session)
            problems = []
            if browser.wait_for("Page.loadEventFired", session, LOAD_TIMEOUT_S) is None:
                problems.append(f"did not load within {LOAD_TIMEOUT_S} s")
            else:
                deadline = time.monotonic() + SETTLE_TIMEOUT_S
                while not evaluate(browser, session, SETTLED) and time.monotonic() < deadline:
                    time.sleep(0.05)
                listed = set(evaluate(browser, session, SIDEBAR) or [])
                problems += [f"the sidebar does not list the page {page}"
                             for page in book_pages if page not in listed]
                problems += console_errors(browser.events, session)
            if problems:
                failures["index.html, opened as a file"] = problems
        except (RuntimeError, TimeoutError, OSError) as error:
            print(f"the browser failed: {error} (its log: {log_path})")
            return 1
        finally:
            browser.close()
            server.shutdown()

    for name, problems in failures.items():
        for problem in problems:
            print(f"{name}: {problem}")
    missing_shots = [shot for shot in SCREENSHOTS.values()
                     if not os.path.isfile(os.path.join(options.screenshots, shot))]
    for shot in missing_shots:
        print(f"no screenshot {shot}: its page is not in the book")
    print(f"{len(pages)} pages opened in {os.path.basename(chromium)}: "
          f"{len(failures)} with problems; screenshots in {options.screenshots}")
    return 1 if failures or missing_shots else 0


if __name__ == "__main__":
    sys.exit(main())
