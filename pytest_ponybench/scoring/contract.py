"""A task's contract table: every sentence of its prompt, and the checks that enforce it.

`contract.md` in a task folder quotes the prompt row by row; under each quote, bullets name the
checks (`test_correct.py::test_name`), the graders (`grader:name`) that enforce it, or say
`not checked, because ...`. The table is proven against the task itself, so it cannot drift
from it: every quote must be text of the prompt, every word of the prompt must sit in some
quote (a sentence left out is a behaviour left unmapped), and every check named must be one the
checks folder defines. Words only count: markdown, punctuation and whitespace may differ.

The selftest fails a task whose table breaks a rule; a task without a table is said, not failed
(a new or imported suite starts without them); the built-in suite's tests hold every table it
has sound.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_ponybench.scoring.checks import expected_checks

if TYPE_CHECKING:
    from pytest_ponybench.core.tasks import Task

__all__ = ["CONTRACT_FILE", "Contract", "Row", "contract_of", "parse_contract"]

CONTRACT_FILE = "contract.md"
NOT_CHECKED = "not checked, because"
# A reason says something: at least this many words after "because".
MIN_REASON_WORDS = 3
_CHECK = re.compile(r"\b(test\w*\.py::[A-Za-z_]\w*(?:::[A-Za-z_]\w*)?)")
_GRADER = re.compile(r"\bgrader:([\w.-]+)")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Row:
    """One quote of the prompt and what enforces it."""

    line: int  # where the quote starts in contract.md, 1-based
    quote: str
    checks: tuple[str, ...] = ()
    graders: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()  # the "not checked, because ..." bullets

    @property
    def checked(self) -> bool:
        return bool(self.checks or self.graders)


@dataclass(frozen=True)
class Contract:
    """A parsed table and what is wrong with it against its task."""

    rows: tuple[Row, ...]
    problems: tuple[str, ...] = field(default=())

    def figure(self) -> str:
        checked = sum(1 for r in self.rows if r.checked)
        return f"contract {len(self.rows)} rows ({checked} checked, {len(self.rows) - checked} not checked)"


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def parse_contract(text: str) -> tuple[list[Row], list[str]]:
    """The rows of a contract.md and the problems of its form (line numbers in words).

    A row is one or more `>` lines (the quote, one `>` and a space stripped from each) and the
    `-` bullets under it; other lines (a heading, a note) are free text.
    """
    rows: list[Row] = []
    problems: list[str] = []
    quote: list[str] = []
    start = 0
    bullets: list[str] = []

    def close() -> None:
        if not quote:
            return
        if not bullets:
            problems.append(
                f"line {start}: the quote has no bullet under it (checks, or 'not checked, because ...')"
            )
        checks: list[str] = []
        graders: list[str] = []
        reasons: list[str] = []
        for bullet in bullets:
            found = _CHECK.findall(bullet) + [f"grader:{g}" for g in _GRADER.findall(bullet)]
            if bullet.lower().startswith(NOT_CHECKED):
                reason = bullet[len(NOT_CHECKED) :].strip()
                if len(_words(reason)) < MIN_REASON_WORDS:
                    problems.append(f"line {start}: 'not checked, because' needs a reason: {bullet!r}")
                reasons.append(reason)
            elif not found:
                problems.append(
                    f"line {start}: bullet {bullet!r} names no check (test_x.py::test_name), "
                    "no grader (grader:name) and does not say 'not checked, because ...'"
                )
            checks += [f for f in found if not f.startswith("grader:")]
            graders += [f.removeprefix("grader:") for f in found if f.startswith("grader:")]
        rows.append(Row(start, " ".join(quote), tuple(checks), tuple(graders), tuple(reasons)))

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith(">"):
            if bullets:
                close()
                quote, bullets = [], []
            if not quote:
                start = number
            quote.append(line[2:] if line.startswith("> ") else line[1:])
        elif line.startswith("- ") and quote:
            bullets.append(line[2:].strip().strip("`").strip())
        elif line.startswith("- "):
            problems.append(f"line {number}: a bullet before any quote ('> ' lines from the prompt)")
        elif line and bullets:
            bullets[-1] += " " + line  # a bullet's continuation line
    close()
    return rows, problems


def _covered(prompt: list[str], quotes: list[list[str]]) -> list[bool]:
    """Which words of the prompt some quote spans (a quote may match in several places)."""
    seen = [False] * len(prompt)
    for words in quotes:
        n = len(words)
        if not n:
            continue
        for i in range(len(prompt) - n + 1):
            if prompt[i : i + n] == words:
                seen[i : i + n] = [True] * n
    return seen


def _uncovered_spans(prompt: list[str], seen: list[bool]) -> list[str]:
    spans: list[str] = []
    i = 0
    while i < len(prompt):
        if seen[i]:
            i += 1
            continue
        j = i
        while j < len(prompt) and not seen[j]:
            j += 1
        spans.append(" ".join(prompt[i:j]))
        i = j
    return spans


def contract_of(task: Task) -> Contract | None:
    """The task's contract table checked against its prompt, checks and graders; None when the
    task has none."""
    path = task.path / CONTRACT_FILE
    if not path.is_file():
        return None
    rows, problems = parse_contract(path.read_text(encoding="utf-8"))
    where = f"{CONTRACT_FILE}"
    prompt = _words(task.prompt)
    joined = " " + " ".join(prompt) + " "
    quotes = [_words(r.quote) for r in rows]
    for row, words in zip(rows, quotes, strict=True):
        if not words:
            problems.append(f"line {row.line}: an empty quote")
        elif " " + " ".join(words) + " " not in joined:
            problems.append(f"line {row.line}: the quote is not in prompt.md: {row.quote[:120]!r}")
    for span in _uncovered_spans(prompt, _covered(prompt, quotes)):
        problems.append(f"prompt.md says {span[:160]!r} but no row quotes it")
    defined = set(expected_checks(task.checks))
    graders = {g.name for g in task.graders}
    for row in rows:
        for check in row.checks:
            if check not in defined:
                problems.append(f"line {row.line}: {check} is not a check of checks/ (no such test)")
        for grader in row.graders:
            if grader not in graders:
                problems.append(f"line {row.line}: grader:{grader} is not a [[graders]] name of task.toml")
    if not rows and not problems:
        problems.append("no rows ('> ' quotes of the prompt, each with its bullets)")
    return Contract(tuple(rows), tuple(f"{where}: {p}" for p in problems))
