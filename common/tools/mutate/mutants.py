"""The mutants of a reference: each hole's code with one mechanical change.

A mutant is what a learner's slip would make of the reference's answer: one relational
operator at its boundary, a constant or an index one off, a loop started at 0 or stepped
by 1, two arguments or a row and a column exchanged, a wait, commit or barrier left out
or moved past its neighbour, a size in bytes read as elements. Only the lines between a
step's `//! [step N hole]` markers change: the code around the holes is the learner's
given, not theirs to get wrong.

    for mutant in mutants_of("solutions/01_copy/copy.cu"):
        mutant.step, mutant.operator, mutant.line, mutant.before, mutant.after, mutant.text
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterator

HOLE = re.compile(r"//! \[step (\w+) hole\]")

# The calls and statements that order copies: leaving one out, or moving it past its
# neighbour, is the mistake of the async machinery that the chapters teach.
SYNC_WORDS = re.compile(
    r"__syncthreads|cp_async_wait|cp_async_commit|producer_acquire|producer_commit|consumer_wait|"
    r"consumer_release|\.arrive|arrive_and_wait|\.wait\(|mbarrier|fence_proxy|wait_parity|try_wait|"
    r"expect_tx|memcpy_async|cp_async_bulk|tensor_copy|commit_group|wait_group")

RELATIONS = {" < ": " <= ", " <= ": " < ", " > ": " >= ", " >= ": " > ", " == ": " != ", " != ": " == "}

# Names a slip exchanges: a row for a column, x for y, one GEMM extent for another.
EXCHANGES = [
    (r"\bblockIdx\.x\b", "blockIdx.y"), (r"\bblockIdx\.y\b", "blockIdx.x"),
    (r"\bthreadIdx\.x\b", "threadIdx.y"),
    (r"(?<![A-Za-z])row(?=s?\b|_)", "col"), (r"(?<![A-Za-z])col(?=s?\b|_)", "row"),
    (r"Rows\b", "Cols"), (r"Cols\b", "Rows"),
    (r"\bm\b", "n"), (r"\bn\b", "m"), (r"\bk\b", "m"),
    (r"_m\b", "_n"), (r"_n\b", "_m"),
]


@dataclasses.dataclass
class Mutant:
    step: str        # the hole's step ("1", "5a")
    operator: str    # the kind of change, one word
    line: int        # 1-based line of the change in the file
    before: str      # the line (or two lines) as the reference has them
    after: str       # and as the mutant has them
    text: str        # the whole mutated file


def code_part(line: str) -> tuple[str, str]:
    """The line's code and its trailing comment (which no operator touches)."""
    at = line.find("//")
    return (line, "") if at < 0 else (line[:at], line[at:])


def replacements(code: str) -> Iterator[tuple[str, str]]:
    """(operator, mutated code) for each single change of one line's code."""
    for old, new in RELATIONS.items():
        for match in re.finditer(re.escape(old), code):
            yield "relation", code[:match.start()] + new + code[match.end():]
    for match in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", code):
        value = int(match.group(1))
        for changed in (value + 1, value - 1):
            if changed >= 0:
                yield "constant", code[:match.start()] + str(changed) + code[match.end():]
    for match in re.finditer(r"\[([^\[\]]+)\]", code):
        if not match.group(1).strip().isdigit():
            yield "index", code[:match.end() - 1] + " + 1" + code[match.end() - 1:]
    loop = re.search(r"for \((?:int|unsigned|auto) (\w+) = ([^;]+);", code)
    if loop and loop.group(2).strip() != "0":
        yield "loop_start", code[:loop.start(2)] + "0" + code[loop.end(2):]
    for match in re.finditer(r"(\w+) \+= ([^;)]+)", code):
        if match.group(2).strip() != "1":
            yield "loop_step", code[:match.start(2)] + "1" + code[match.end(2):]
    for match in re.finditer(r"\+\+(\w+)|(\w+)\+\+", code):
        name = match.group(1) or match.group(2)
        yield "loop_step", code[:match.start()] + name + " += 2" + code[match.end():]
    for match in re.finditer(r"\(([^(),]+), ([^(),]+)\)", code):
        first, second = match.group(1), match.group(2)
        if first.strip() != second.strip() and not re.match(r"\s*(int|const|float)\b", first):
            yield "arguments", code[:match.start()] + "(" + second + ", " + first + ")" + code[match.end():]
    for pattern, new in EXCHANGES:
        for match in re.finditer(pattern, code):
            if not re.search(r"\b(int|auto|float|unsigned) $", code[:match.start()]):  # not a declaration
                yield "exchange", code[:match.start()] + new + code[match.end():]
    for match in re.finditer(r"\s*\*\s*sizeof\(\w+\)|sizeof\(\w+\)\s*\*\s*", code):
        yield "bytes", code[:match.start()] + code[match.end():]


def is_statement(code: str) -> bool:
    """A whole statement on one line: it ends the line and its parentheses close."""
    stripped = code.strip()
    return stripped.endswith(";") and stripped.count("(") == stripped.count(")") and not stripped.startswith("for")


def hole_lines(lines: list[str]) -> Iterator[tuple[str, int]]:
    """(step, index) of every line inside a hole, its markers left out."""
    step = None
    for index, line in enumerate(lines):
        marker = HOLE.search(line)
        if marker:
            step = None if step == marker.group(1) else marker.group(1)
            continue
        if step is not None:
            yield step, index


def mutants_of(path: str) -> list[Mutant]:
    with open(path, encoding="utf-8") as file:
        original = file.read()
    lines = original.split("\n")
    seen = {original}
    result: list[Mutant] = []

    def add(step: str, operator: str, index: int, changed: list[str], span: int = 1, after: str = "") -> None:
        text = "\n".join(changed)
        if text in seen:
            return
        seen.add(text)
        before = "\n".join(line.strip() for line in lines[index:index + span])
        after = after or "\n".join(line.strip() for line in changed[index:index + span])
        result.append(Mutant(step, operator, index + 1, before, after, text))

    holes = list(hole_lines(lines))
    inside = {index for _, index in holes}
    for step, index in holes:
        code, comment = code_part(lines[index])
        if not code.strip():
            continue
        for operator, mutated in replacements(code):
            changed = list(lines)
            changed[index] = mutated + comment
            add(step, operator, index, changed)
        if is_statement(code) and SYNC_WORDS.search(code):
            add(step, "left_out", index, lines[:index] + lines[index + 1:], after="(left out)")
            # Moved past the neighbouring statement, or into (out of) the block it follows
            # (precedes): a wait moved into the copy loop, a store moved past a commit.
            for neighbour in (index - 1, index + 1):
                if neighbour not in inside:
                    continue
                other, _ = code_part(lines[neighbour])
                if is_statement(other) or other.strip() in ("}", "{"):
                    changed = list(lines)
                    changed[index], changed[neighbour] = changed[neighbour], changed[index]
                    add(step, "moved", min(index, neighbour), changed, span=2)
    return result
