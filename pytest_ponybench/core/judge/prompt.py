"""The judge's requests: prompts kept as data (`prompts/*.md`), the judged text quoted.

Quoting is what keeps the judged text from instructing the judge. Each judged text stands
between `<<<QUOTED-<id> <label>>>>` and `<<<END-QUOTED-<id>>>>`, where <id> is a hash of
everything quoted in the request, so a text cannot know its own closing line in advance; and
every run of three or more `<` inside a quoted text becomes `‹` characters, so nothing inside
can even look like the start of a delimiter. The system prompt tells the judge that quoted
text is data. The directives of the offline judge (`ponybench-judge: pass`) are removed from
what a live judge sees, so a reference written for the offline judge cannot steer a real one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = [
    "DIRECTIVE",
    "Judge",
    "JudgeReply",
    "JudgeRequest",
    "KINDS",
    "MAX_JUDGED_CHARS",
    "QUOTE_OPEN",
    "TASK_LABEL",
    "criteria_request",
    "neutralise",
    "quote",
    "quote_id",
    "reference_request",
    "render",
    "rubric_request",
    "strip_directives",
    "template",
]

KINDS = ("verdict", "level", "winner")
DIRECTIVE = re.compile(r"(?i)ponybench-judge\s*:\s*(pass|fail|level\s*=\s*\d+|better|worse|tie)\b")
QUOTE_OPEN = re.compile(r"^<<<QUOTED-([0-9a-f]{16}) ([^\n]*)>>>$", re.M)
_ANGLES = re.compile(r"<{3,}")
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
# What a judge reads of the judged material in one request, all blocks together: enough for a
# long reply or a diff of a few files, and a bound on the judge's cost per call.
MAX_JUDGED_CHARS = 100_000
TASK_LABEL = "task"


@dataclass(frozen=True)
class JudgeRequest:
    """One call to the judge: its system prompt, its prompt, and the answer it must give."""

    system: str
    prompt: str
    kind: str  # verdict (PASS/FAIL) | level (a rubric level) | winner (A/B/TIE)
    levels: int = 0  # for kind = level: how many levels the rubric has


@dataclass(frozen=True)
class JudgeReply:
    """What came back: the judge's text, what it cost, or why there is no answer."""

    text: str
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    error: str | None = None
    retryable: bool = False  # the error was the API's (it may go away on its own)


Judge = Callable[[JudgeRequest], JudgeReply]


@cache
def template(name: str) -> str:
    """A prompt of the package (`prompts/<name>.md`)."""
    return resources.files("pytest_ponybench.core.judge").joinpath("prompts", f"{name}.md").read_text("utf-8")


def render(text: str, values: Mapping[str, str]) -> str:
    """{{name}} placeholders filled in one pass: a value is never scanned for placeholders again."""

    def fill(m: re.Match[str]) -> str:
        if m[1] not in values:
            raise KeyError(f"prompt placeholder {{{{{m[1]}}}}} has no value")
        return values[m[1]]

    return _PLACEHOLDER.sub(fill, text)


def neutralise(text: str) -> str:
    """Runs of three or more '<' become as many '‹': no quoted text can open or close a quote."""
    return _ANGLES.sub(lambda m: "\u2039" * len(m[0]), text)


def strip_directives(text: str) -> str:
    return DIRECTIVE.sub("[directive removed]", text)


def quote_id(texts: Sequence[str]) -> str:
    h = hashlib.sha256(b"ponybench-judge-quote\0")
    for text in texts:
        h.update(text.encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()[:16]


def quote(label: str, text: str, qid: str) -> str:
    label = " ".join(neutralise(label).split()).replace(">", "\u203a")
    return f"<<<QUOTED-{qid} {label}>>>\n{text}\n<<<END-QUOTED-{qid}>>>"


def _bounded(blocks: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Every block cut to its share of MAX_JUDGED_CHARS, saying how much was cut."""
    total = sum(len(t) for _, t in blocks)
    if total <= MAX_JUDGED_CHARS:
        return list(blocks)
    share = MAX_JUDGED_CHARS // max(1, len(blocks))
    return [
        (
            label,
            t if len(t) <= share else t[:share] + f"\n[... {len(t) - share} characters cut by the harness]",
        )
        for label, t in blocks
    ]


def _quoted(task: str, blocks: Sequence[tuple[str, str]], live: bool) -> tuple[str, list[str]]:
    """(the quoted task, the quoted blocks), all under one quote id."""
    cleaned = [(label, neutralise(strip_directives(t) if live else t)) for label, t in _bounded(blocks)]
    task_text = neutralise(strip_directives(task) if live else task)
    qid = quote_id([task_text, *(f"{label}\0{t}" for label, t in cleaned)])
    return quote(TASK_LABEL, task_text, qid), [quote(label, t, qid) for label, t in cleaned]


def criteria_request(
    criteria: str, judged: Sequence[tuple[str, str]], *, task: str, what: str, live: bool
) -> JudgeRequest:
    """Pass or fail on criteria; judged is (label, text) per block (the reply, each file)."""
    quoted_task, blocks = _quoted(task, judged, live)
    prompt = render(
        template("criteria"),
        {"task": quoted_task, "what": what, "judged": "\n\n".join(blocks), "criteria": criteria.strip()},
    )
    return JudgeRequest(system=template("system").strip(), prompt=prompt, kind="verdict")


def rubric_request(
    criteria: str,
    rubric: Sequence[str],
    judged: Sequence[tuple[str, str]],
    *,
    task: str,
    what: str,
    live: bool,
) -> JudgeRequest:
    """One level of a rubric (worst to best, numbered from 0)."""
    quoted_task, blocks = _quoted(task, judged, live)
    levels = "\n".join(f"Level {n}: {' '.join(text.split())}" for n, text in enumerate(rubric))
    prompt = render(
        template("rubric"),
        {
            "task": quoted_task,
            "what": what,
            "judged": "\n\n".join(blocks),
            "criteria": criteria.strip(),
            "levels": levels,
            "top": str(len(rubric) - 1),
        },
    )
    return JudgeRequest(system=template("system").strip(), prompt=prompt, kind="level", levels=len(rubric))


def reference_request(criteria: str, first: str, second: str, *, task: str, live: bool) -> JudgeRequest:
    """Head to head: response A (first) against response B (second), winner or tie."""
    quoted_task, (a, b) = _quoted(task, [("response A", first), ("response B", second)], live)
    prompt = render(
        template("reference"), {"task": quoted_task, "first": a, "second": b, "criteria": criteria.strip()}
    )
    return JudgeRequest(system=template("system").strip(), prompt=prompt, kind="winner")
