#!/usr/bin/env python3
"""Grades the references' mutants, or a set of kernels kept outside the tree, in the simulator.

    mutate.py mutants --source . --build build/mutate [--chapters 1 4] [--jobs 8]
    mutate.py set DIR --source . --build build/mutate [--jobs 8]

`mutants` makes every mutant of each chapter's holes (mutants.py: one mechanical change of
the reference), `set` takes folders DIR/chapterN/<id>/ of kernel files (a learner's
attempts; the files a folder lacks are the reference's). Either way each variant gets the
chapter's sim grader (WB_VARIANT_DIRS, cmake/WbChapters.cmake) in a build folder of its
own, configured for the simulator only; the variants that compile are graded with
`--wb-report`, in parallel, and each report is kept beside its variant. The table says per
chapter how many were caught (some step failed), how many of those named a likely cause,
how many showed only evidence (the wrong elements, the failure, with no cause or with a
reading that several mistakes share), and which survived: a mutant that passes every step
is either equivalent to the reference (the same output and technique) or a gap.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import mutants as mutants_module  # noqa: E402

# Readings of the wrong elements that several different mistakes produce: what they say
# is observed, not a cause (compare.cpp prints them under "Observed:" when no cause is found).
EVIDENCE_ONLY = re.compile(r"^(Observed|What the wrong elements show):", re.M)


def chapters_of(source: pathlib.Path) -> dict[int, tuple[str, list[str]]]:
    """Chapter number -> (folder, kernel files), from solutions/."""
    result = {}
    for folder in sorted((source / "solutions").iterdir()):
        match = re.match(r"(\d+)_", folder.name)
        if match and folder.is_dir():
            result[int(match.group(1))] = (folder.name, sorted(p.name for p in folder.glob("*.cu")))
    return result


def write_mutants(source: pathlib.Path, out: pathlib.Path, chapters: list[int]) -> None:
    known = chapters_of(source)
    for number in chapters:
        folder, kernels = known[number]
        chapter_dir = out / f"chapter{number}"
        if chapter_dir.exists():
            shutil.rmtree(chapter_dir)
        listing = []
        for kernel in kernels:
            for index, mutant in enumerate(mutants_module.mutants_of(str(source / "solutions" / folder / kernel))):
                name = f"{pathlib.Path(kernel).stem}_s{mutant.step}_{mutant.operator}_{mutant.line}_{index}"
                (chapter_dir / name).mkdir(parents=True)
                (chapter_dir / name / kernel).write_text(mutant.text, encoding="utf-8")
                listing.append({"id": name, "file": kernel, "step": mutant.step, "operator": mutant.operator,
                                "line": mutant.line, "before": mutant.before, "after": mutant.after})
        (chapter_dir / "mutants.json").write_text(json.dumps(listing, indent=1), encoding="utf-8")
        print(f"chapter {number}: {len(listing)} mutants of {', '.join(kernels)}")


def variants_of(root: pathlib.Path, chapters: list[int]) -> list[tuple[int, str]]:
    found = []
    for number in chapters:
        chapter_dir = root / f"chapter{number}"
        if chapter_dir.is_dir():
            found += [(number, d.name) for d in sorted(chapter_dir.iterdir())
                      if d.is_dir() and re.fullmatch(r"[A-Za-z0-9_]+", d.name)]
    return found


def configure_and_build(source: pathlib.Path, build: pathlib.Path, root: pathlib.Path,
                        variants: list[tuple[int, str]], generator: str, jobs: int) -> None:
    command = ["cmake", "-S", str(source), "-B", str(build), "-DWB_BACKEND=sim", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
               f"-DWB_VARIANT_DIRS={root}", "-DWB_MAINTAINER_TESTS=OFF"]
    if generator and not (build / "CMakeCache.txt").exists():
        command += ["-G", generator]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    targets = [f"grade_chapter{number}_variant_{name}_sim" for number, name in variants]
    cache = (build / "CMakeCache.txt").read_text(encoding="utf-8")
    keep_going = ["-k", "0"] if "CMAKE_GENERATOR:INTERNAL=Ninja" in cache else ["-k"]
    # A mutant that does not compile is left out of the table, not the end of the run.
    log = build / "variants_build.log"
    with open(log, "w", encoding="utf-8") as out:
        subprocess.run(["cmake", "--build", str(build), "-j", str(jobs), "--target", *targets, "--", *keep_going],
                       stdout=out, stderr=subprocess.STDOUT)


def first_problem(report: str) -> str:
    at = report.find("First problem")
    if at < 0:
        return ""
    end = report.find("\nHint:", at)
    return report[at:end if end >= 0 else len(report)]


def verdict(report: str, returncode: int) -> str:
    """caught with a cause, caught with evidence only, or survived."""
    if returncode == 0:
        return "survived"
    problem = first_problem(report)
    if not problem:
        return "evidence"  # a failure the step runner could not attribute
    if "Likely cause:" in problem:
        return "cause"
    if EVIDENCE_ONLY.search(problem) or "elements are wrong" in problem or "the kernel failed" in problem:
        return "evidence"
    return "cause"  # a technique figure or a finding, which names what is wrong and where


def grade(build: pathlib.Path, root: pathlib.Path, variants: list[tuple[int, str]], jobs: int,
          timeout: int) -> dict[tuple[int, str], dict]:
    executables = {p.name: p for p in build.rglob("grade_chapter*_variant_*_sim") if p.is_file()}
    environment = dict(os.environ, WB_SIM_THREADS="2", WB_STEP_TIMEOUT=str(timeout))

    def run(variant: tuple[int, str]) -> tuple[tuple[int, str], dict]:
        number, name = variant
        exe = executables.get(f"grade_chapter{number}_variant_{name}_sim")
        if exe is None:
            return variant, {"verdict": "did not compile"}
        try:
            done = subprocess.run([str(exe), "--wb-report"], capture_output=True, text=True, env=environment,
                                  timeout=timeout * 12)
            report, code = done.stdout + done.stderr, done.returncode
        except subprocess.TimeoutExpired:
            report, code = "the grader ran past its time", 124
        (root / f"chapter{number}" / name / "report.txt").write_text(report, encoding="utf-8")
        return variant, {"verdict": verdict(report, code), "problem": first_problem(report)}

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return dict(pool.map(run, variants))


def the_cause(problem: str) -> str:
    """The report's likely cause or observation, else its first line past the heading."""
    for line in problem.splitlines():
        if line.startswith(("Likely cause:", "Observed:")):
            return line
    lines = problem.splitlines()
    return lines[2] if len(lines) > 2 else (lines[-1] if lines else "")


def summary(results: dict[tuple[int, str], dict], root: pathlib.Path) -> str:
    """One line a variant: its change (for mutants), its verdict and what the report names."""
    out = []
    for number in sorted({n for n, _ in results}):
        listing = root / f"chapter{number}" / "mutants.json"
        changes = {m["id"]: m for m in json.loads(listing.read_text())} if listing.exists() else {}
        out.append(f"## chapter {number}")
        for (n, name), result in sorted(results.items()):
            if n != number:
                continue
            m = changes.get(name)
            change = f" `{m['before']}` -> `{m['after']}`" if m else ""
            out.append(f"- {name}{change}: **{result['verdict']}**. {the_cause(result.get('problem', ''))}")
    return "\n".join(out)


def table(results: dict[tuple[int, str], dict], root: pathlib.Path, mutants: bool) -> str:
    lines = ["| chapter | graded | caught | cause named | evidence only | survived | did not compile |",
             "|---|---|---|---|---|---|---|"]
    totals = [0] * 6
    survivors = []
    for number in sorted({n for n, _ in results}):
        counts = {"cause": 0, "evidence": 0, "survived": 0, "did not compile": 0}
        for (n, name), result in sorted(results.items()):
            if n != number:
                continue
            counts[result["verdict"]] += 1
            if result["verdict"] == "survived":
                survivors.append((number, name))
        graded = counts["cause"] + counts["evidence"] + counts["survived"]
        row = [graded, counts["cause"] + counts["evidence"], counts["cause"], counts["evidence"],
               counts["survived"], counts["did not compile"]]
        totals = [a + b for a, b in zip(totals, row)]
        lines.append(f"| {number} | " + " | ".join(map(str, row)) + " |")
    lines.append("| all | " + " | ".join(map(str, totals)) + " |")
    if survivors:
        lines.append("\nSurvivors (every step passed):")
        listings = {}
        for number, name in survivors:
            if mutants and number not in listings:
                listing = root / f"chapter{number}" / "mutants.json"
                listings[number] = {m["id"]: m for m in json.loads(listing.read_text())} if listing.exists() else {}
            m = listings.get(number, {}).get(name)
            change = f" line {m['line']}: {m['before']!r} -> {m['after']!r}" if m else ""
            lines.append(f"  chapter {number} {name}{change}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["mutants", "set"])
    parser.add_argument("set_dir", nargs="?", help="for `set`: the folder of chapterN/<id>/ kernel files")
    parser.add_argument("--source", default=".", help="the workbook's source folder")
    parser.add_argument("--build", default="build/mutate", help="a build folder of the mutation runs' own")
    parser.add_argument("--chapters", type=int, nargs="*", help="the chapters (default: every one)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=int, default=20, help="each step's time limit, in seconds")
    parser.add_argument("--generator", default="", help="CMake's generator for a new build folder")
    parser.add_argument("--no-build", action="store_true", help="grade what is built")
    args = parser.parse_args()

    source = pathlib.Path(args.source).resolve()
    build = pathlib.Path(args.build).resolve()
    chapters = args.chapters or sorted(chapters_of(source))
    if args.what == "mutants":
        root = build / "mutants"
        write_mutants(source, root, chapters)
    else:
        if not args.set_dir:
            parser.error("`set` needs the folder of the set")
        root = pathlib.Path(args.set_dir).resolve()
    variants = variants_of(root, chapters)
    if not args.no_build:
        configure_and_build(source, build, root, variants, args.generator, args.jobs)
    results = grade(build, root, variants, args.jobs, args.timeout)
    text = table(results, root, args.what == "mutants")
    (root / "table.md").write_text(text + "\n", encoding="utf-8")
    (root / "summary.md").write_text(summary(results, root) + "\n", encoding="utf-8")
    (root / "results.json").write_text(json.dumps({f"{n}/{name}": r for (n, name), r in results.items()}, indent=1),
                                       encoding="utf-8")
    print(text)
    print(f"\nEach variant's report: {root}/chapterN/<id>/report.txt; this table: {root}/table.md; "
          f"each variant's verdict and cause: {root}/summary.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
