"""The offline judge (`offline-judge`): answers a judge request from a directive written inside
the judged text, so judge graders run, and are tested, with no account.

A pure function of the Messages API request body the judge sends (the same body whether it
came through the real CLI to the offline server, or was built here for the selftest). It reads
only the quoted blocks of the user's message (never the task's block, never the criteria):
`ponybench-judge: pass | fail | level=N | better | worse | tie`. Without a directive it answers
the worst answer it can (FAIL, level 0, or TIE for a head-to-head where neither side has one)
and says why. The answer format follows what the request asks for (VERDICT, LEVEL or WINNER).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from pytest_ponybench.core.judge.prompt import DIRECTIVE, QUOTE_OPEN, TASK_LABEL, JudgeReply, JudgeRequest

__all__ = ["OFFLINE_JUDGE", "answer", "blocks", "judge_in_process", "request_body"]

OFFLINE_JUDGE = "offline-judge"
_LEVEL_LINE = re.compile(r"^Level (\d+):", re.M)


def _user_text(body: Mapping[str, Any]) -> str:
    parts: list[str] = []
    messages = body.get("messages")
    for message in messages if isinstance(messages, list) else []:
        if not isinstance(message, Mapping) or message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts += [
                str(b.get("text", "")) for b in content if isinstance(b, Mapping) and b.get("type") == "text"
            ]
    return "\n".join(parts)


def blocks(text: str) -> Iterator[tuple[str, str]]:
    """(label, quoted text) of every quoted block, in order."""
    for opening in QUOTE_OPEN.finditer(text):
        qid, label = opening[1], opening[2]
        end = text.find(f"\n<<<END-QUOTED-{qid}>>>", opening.end())
        if end != -1:
            yield label, text[opening.end() + 1 : end]


def _outside(text: str) -> str:
    """The request without its quoted blocks: what the harness itself wrote."""
    out, at = [], 0
    for opening in QUOTE_OPEN.finditer(text):
        if opening.start() < at:
            continue
        closing = f"<<<END-QUOTED-{opening[1]}>>>"
        end = text.find(closing, opening.end())
        if end == -1:
            continue
        out.append(text[at : opening.start()])
        at = end + len(closing)
    out.append(text[at:])
    return "".join(out)


def _kind(outside: str) -> str:
    if "WINNER: A" in outside:
        return "winner"
    if "LEVEL: <n>" in outside:
        return "level"
    return "verdict"


def _directive(text: str) -> str | None:
    m = DIRECTIVE.search(text)
    return "".join(m[1].lower().split()) if m else None


def answer(body: Mapping[str, Any]) -> str:
    """The offline judge's answer text to one request body."""
    text = _user_text(body)
    outside = _outside(text)
    kind = _kind(outside)
    judged = [(label, t) for label, t in blocks(text) if label != TASK_LABEL]
    found = [(label, d) for label, t in judged if (d := _directive(t)) is not None]
    if kind == "winner":
        for label, d in found:
            side = label.rsplit(" ", 1)[-1]
            other = "B" if side == "A" else "A"
            if d in ("better", "worse", "tie"):
                winner = {"better": side, "worse": other, "tie": "TIE"}[d]
                return f"REASON: {label} carries the directive ponybench-judge: {d}.\nWINNER: {winner}"
        return (
            "REASON: neither response carries a ponybench-judge directive (better, worse or tie).\n"
            "WINNER: TIE"
        )
    if kind == "level":
        top = max((int(n) for n in _LEVEL_LINE.findall(outside)), default=0)
        for label, d in found:
            if d.startswith("level="):
                return f"REASON: the {label} carries the directive ponybench-judge: {d}.\nLEVEL: {d[6:]}"
            if d in ("pass", "fail"):
                level = top if d == "pass" else 0
                return f"REASON: the {label} carries the directive ponybench-judge: {d}.\nLEVEL: {level}"
        return "REASON: the judged text carries no ponybench-judge directive: the lowest level.\nLEVEL: 0"
    for label, d in found:
        if d in ("pass", "fail"):
            return f"REASON: the {label} carries the directive ponybench-judge: {d}.\nVERDICT: {d.upper()}"
    return (
        "REASON: the judged text carries no ponybench-judge directive (pass or fail), so it fails.\n"
        "VERDICT: FAIL"
    )


def request_body(request: JudgeRequest, model: str = OFFLINE_JUDGE) -> dict[str, Any]:
    """The Messages API body the CLI sends for a judge request (its system prompt, one user
    message), enough for `answer`; the selftest judges in process through it."""
    return {
        "model": model,
        "system": [{"type": "text", "text": request.system}],
        "messages": [{"role": "user", "content": request.prompt}],
        "max_tokens": 32000,
        "stream": True,
    }


def judge_in_process(request: JudgeRequest) -> JudgeReply:
    """The offline judge without the CLI or a server (the selftest's judge): free, instant."""
    return JudgeReply(text=answer(request_body(request)))
