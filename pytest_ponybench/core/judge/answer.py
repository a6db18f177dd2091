"""Reading the judge's answer, strictly: an answer that is not exactly one of the allowed
answers is a judge error, never a pass.

The answer line is `VERDICT: PASS|FAIL`, `LEVEL: <n>` or `WINNER: A|B|TIE` (the request says
which). Markdown emphasis around the line is tolerated; anything else is not: no answer line,
an answer line of the wrong kind, a value outside the allowed ones (a level beyond the rubric,
`VERDICT: MOSTLY`), or two answer lines that disagree are all errors that name what was wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Answer", "JudgeAnswerError", "KEYWORD", "REASON_CHARS", "parse"]

_ANSWER_LINE = re.compile(r"^\s*(VERDICT|LEVEL|WINNER)\s*:\s*(.*?)\s*$", re.I)
_EMPHASIS = "*_`#> \t"
_REASON = re.compile(r"^\s*REASON\s*:\s*", re.I)
KEYWORD = {"verdict": "VERDICT", "level": "LEVEL", "winner": "WINNER"}
REASON_CHARS = 1_000


class JudgeAnswerError(ValueError):
    """The judge's text holds no usable answer; the message says why."""


@dataclass(frozen=True)
class Answer:
    kind: str  # verdict | level | winner
    value: str  # "pass" | "fail" | the level as digits | "A" | "B" | "TIE"
    reason: str

    @property
    def level(self) -> int | None:
        return int(self.value) if self.kind == "level" else None


def _value(kind: str, raw: str, levels: int) -> str:
    text = raw.strip(_EMPHASIS).strip().rstrip(".").strip(_EMPHASIS)
    if kind == "verdict":
        if text.upper() in ("PASS", "FAIL"):
            return text.lower()
        raise JudgeAnswerError(f"VERDICT must be PASS or FAIL, not {raw!r}")
    if kind == "level":
        if text.isdigit() and int(text) < levels:
            return str(int(text))
        raise JudgeAnswerError(f"LEVEL must be a whole number from 0 to {levels - 1}, not {raw!r}")
    if text.upper() in ("A", "B", "TIE"):
        return text.upper()
    raise JudgeAnswerError(f"WINNER must be A, B or TIE, not {raw!r}")


def parse(text: str, kind: str, levels: int = 0) -> Answer:
    """The answer of kind `kind` in the judge's text, or JudgeAnswerError."""
    if kind not in KEYWORD:
        raise ValueError(f"unknown answer kind {kind!r}")
    wanted = KEYWORD[kind]
    values: list[str] = []
    reason_lines: list[str] = []
    for line in text.splitlines():
        m = _ANSWER_LINE.match(line.strip(_EMPHASIS))
        if m is None:
            if line.strip():
                reason_lines.append(_REASON.sub("", line).strip())
            continue
        keyword = m[1].upper()
        if keyword != wanted:
            raise JudgeAnswerError(f"the judge answered {keyword} where {wanted} was asked: {line.strip()!r}")
        values.append(_value(kind, m[2], levels))
    if not values:
        shown = " ".join(text.split())[:200]
        raise JudgeAnswerError(f"no '{wanted}:' line in the judge's answer: {shown!r}")
    if len(set(values)) > 1:
        raise JudgeAnswerError(f"the judge gave {len(values)} different {wanted} lines: {', '.join(values)}")
    reason = " ".join(" ".join(reason_lines).split())
    if len(reason) > REASON_CHARS:
        reason = reason[:REASON_CHARS] + " ..."
    return Answer(kind=kind, value=values[0], reason=reason)
