"""OpenCode's `run --format json` stream, parsed once into a `Transcript`.

What opencode 1.18 writes, one JSON object a line, each with `type`, `timestamp`, `sessionID`
and a `part`:

- `step_start`: a model request begins (one per turn);
- `text` (`part.text`) and `reasoning` (`part.text`): what the model wrote;
- `tool_use`: a tool call once it ran: `part.tool`, `part.callID`, `part.state` with `status`
  (completed, error), `input`, `output` or `error`;
- `step_finish`: the request's end: `part.reason` (tool-calls, stop, length), `part.tokens`
  (input, output, reasoning, cache.read, cache.write) and `part.cost`;
- `error`: the session failed: `error.name` and `error.data` (message, statusCode, isRetryable).

There is no start event and no end event: the transcript's `init` is None, and its `result` is
made here in claude's shape from the last `step_finish` (a stop) or the `error` event, so the
readers that ask "did it end, and how" read every CLI alike; its duration is the span of the
events' timestamps (from the first step, so without the CLI's start-up). The stream carries no hook events
(OpenCode runs no Claude Code hooks).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_ponybench.agents.streamread import Reader, bounded_lines, count, number
from pytest_ponybench.core.transcript import Message, Note, Transcript, Usage

__all__ = ["parse", "parse_lines"]


def parse(path: Path) -> Transcript:
    """The transcript of the stream at path (a missing file: an empty one)."""
    return parse_lines(bounded_lines(path))


def parse_lines(lines: Iterable[bytes | str | None]) -> Transcript:
    """The transcript of stream lines (None stands for a line too long to read)."""
    return _Reader(out=Transcript(agent="opencode")).parse(lines)


def _tokens(part: Mapping[str, Any]) -> Usage:
    given = part.get("tokens")
    tokens: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    cache = tokens.get("cache")
    cached: Mapping[str, Any] = cache if isinstance(cache, Mapping) else {}
    return Usage(
        input_tokens=count(tokens.get("input")),
        output_tokens=count(tokens.get("output")) + count(tokens.get("reasoning")),
        cache_read_tokens=count(cached.get("read")),
        cache_write_tokens=count(cached.get("write")),
    )


@dataclass
class _Reader(Reader):
    steps: int = 0
    finished: str | None = None  # the last step_finish's reason
    error: Mapping[str, Any] | None = None
    cost: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read: int = 0
    cache_write: int = 0
    first_ms: float | None = None  # the events' timestamps: the session's length
    last_ms: float | None = None

    def event(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        when = number(ev.get("timestamp"))
        if when is not None:
            self.first_ms = when if self.first_ms is None else self.first_ms
            self.last_ms = when
        given = ev.get("part")
        part: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        sid = ev.get("sessionID")
        if self.out.session_id is None and isinstance(sid, str):
            self.out.session_id = sid
        if kind == "step_start":
            self.steps += 1
            self.out.assistant_turns += 1
        elif kind == "text" and isinstance(part.get("text"), str):
            self.text(part["text"])
        elif kind == "reasoning" and isinstance(part.get("text"), str):
            self.entries.append(Message("assistant", part["text"], thinking=True))
        elif kind == "tool_use":
            self.tool(part)
        elif kind == "step_finish":
            self.step_finish(part)
        elif kind == "error":
            error = ev.get("error")
            self.error = error if isinstance(error, Mapping) else {"data": {"message": str(error)}}
            self.note("error", ev, error=True)
        else:
            self.note(str(kind), ev)

    def tool(self, part: Mapping[str, Any]) -> None:
        given = part.get("state")
        state: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        call_id = str(part.get("callID") or "")
        self.call(str(part.get("tool") or ""), state.get("input"), call_id)
        status = state.get("status")
        if status in ("completed", "error"):
            failed = status == "error"
            output = state.get("error") if failed else state.get("output")
            self.result(call_id, output if isinstance(output, str) else str(output or ""), failed)
        if part.get("tool") == "task":
            self.out.subagents += 1

    def step_finish(self, part: Mapping[str, Any]) -> None:
        used = _tokens(part)
        self.input_tokens += used.input_tokens
        self.output_tokens += used.output_tokens
        self.cache_read += used.cache_read_tokens
        self.cache_write += used.cache_write_tokens
        self.out.peak_context_tokens = max(self.out.peak_context_tokens, used.context)
        self.cost += number(part.get("cost")) or 0.0
        reason = part.get("reason")
        self.finished = reason if isinstance(reason, str) else None

    def finish(self) -> Transcript:
        out = self.out
        out.usage = Usage(self.input_tokens, self.output_tokens, self.cache_read, self.cache_write)
        out.cost_usd = self.cost if self.steps else None
        out.turns = self.steps or None
        if self.first_ms is not None and self.last_ms is not None:
            out.duration_ms = int(self.last_ms - self.first_ms)
        if self.error is not None:
            data = self.error.get("data")
            facts: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
            status = facts.get("statusCode")
            message = str(facts.get("message") or self.error.get("name") or "error")
            out.result = {
                "type": "result",
                "subtype": "error",
                "is_error": True,
                "api_error_status": status if isinstance(status, int) else None,
                "result": message,
                "num_turns": self.steps,
                "error": dict(self.error),
            }
        elif self.finished is not None and self.finished != "tool-calls":
            out.result = {
                "type": "result",
                "subtype": "success",
                "is_error": False,
                "api_error_status": None,
                "result": self.last_main_text,
                "num_turns": self.steps,
                "duration_ms": out.duration_ms,
                "finish_reason": self.finished,
            }
        if out.result is not None:
            out.results = 1
            text = f"finish: {self.finished}   turns: {self.steps}   error: {out.result['is_error']}"
            self.entries.append(Note("result", text, bool(out.result["is_error"]), "final"))
        return super().finish()
