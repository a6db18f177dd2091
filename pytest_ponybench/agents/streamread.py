"""What every adapter's stream parser shares: lines read bounded, decoded once, and a transcript
built up call by call.

A CLI's stream is JSON lines. `Reader` takes each line (at most `MAX_LINE_BYTES`; a longer one
is skipped and counted, one holding NUL bytes counted as a hole, one that is not a JSON object
kept as a note) and hands each event to its subclass's `event`, which adds texts, tool calls,
their results, hooks and notes through the helpers here; `finish` puts each call's result on it,
cuts the reply and says what was cut. Only "\\n" ends a line: a CLI may leave U+2028 unescaped
inside JSON strings.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.core.bounded import cut, parse_input
from pytest_ponybench.core.transcript import (
    INPUT_STRING_CHARS,
    MAX_LINE_BYTES,
    REPLY_CHARS,
    TRANSCRIPT_CHARS,
    Entry,
    Message,
    Note,
    ToolCall,
    ToolResult,
    Transcript,
)

__all__ = ["Reader", "bounded_lines", "count", "dumped", "number", "text_of"]


def bounded_lines(path: Path) -> Iterator[bytes | None]:
    """The file's lines, each at most MAX_LINE_BYTES (None in place of a longer one), without
    ever holding more than that in memory; a missing file has no lines."""
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed in finally, read piecewise
    except OSError:
        return
    try:
        while True:
            line = fh.readline(MAX_LINE_BYTES + 1)
            if not line:
                return
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                while (rest := fh.readline(1 << 20)) and not rest.endswith(b"\n"):
                    pass
                yield None
                continue
            yield line
    finally:
        fh.close()


def number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def count(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def dumped(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False, default=str)


def text_of(value: Any) -> str:
    """A tool result's content as text: a string as it is, content blocks by their text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [
            str(b.get("text", "")) if isinstance(b, Mapping) and "text" in b else dumped(b) for b in value
        ]
        return "\n".join(parts)
    return dumped(value)


@dataclass(frozen=True)
class _Slot:
    """A tool call's place among the entries until its result is known."""

    index: int


@dataclass
class _Call:
    index: int
    tool: str
    input: Mapping[str, Any] | None
    raw: str
    subagent: bool
    id: str


@dataclass
class Reader:
    """A transcript built from one CLI's events; subclasses say what each event means."""

    out: Transcript = field(default_factory=Transcript)
    entries: list[Entry | _Slot] = field(default_factory=list)  # a call's slot until its result
    calls: list[_Call] = field(default_factory=list)
    by_id: dict[str, int] = field(default_factory=dict)
    results: dict[int, tuple[str, bool]] = field(default_factory=dict)
    text_size: int = 0
    text_cut: bool = False
    last_main_text: str = ""

    def parse(self, lines: Iterable[bytes | str | None]) -> Transcript:
        for line in lines:
            self.line(line)
        return self.finish()

    def line(self, raw: bytes | str | None) -> None:
        out = self.out
        if raw is None:
            out.long_lines += 1
            return
        data = raw.encode("utf-8", "replace") if isinstance(raw, str) else raw
        if not data.strip():
            return
        if b"\0" in data:
            out.holes += 1
        try:
            event = json.loads(data.decode("utf-8", "replace"))
        except (ValueError, RecursionError):
            event = None
        if not isinstance(event, dict):
            out.bad_lines += 1
            self.entries.append(Note("not JSON", data.decode("utf-8", "replace")))
            return
        if out.results:
            out.after_result += 1
        self.event(event)

    def event(self, ev: dict[str, Any]) -> None:
        raise NotImplementedError

    def note(self, title: str, value: Any, error: bool = False, kind: str = "event") -> None:
        self.entries.append(Note(title, value if isinstance(value, str) else dumped(value), error, kind))

    def text(self, text: str, sub: bool = False) -> None:
        """An assistant text, kept for the transcript up to TRANSCRIPT_CHARS in all."""
        if not sub:
            self.last_main_text = text
        if self.text_size < TRANSCRIPT_CHARS:
            piece = text[: TRANSCRIPT_CHARS - self.text_size]
            self.text_cut = self.text_cut or len(piece) < len(text)
            self.out.texts.append(piece)
            self.text_size += len(piece) + 2
        else:
            self.text_cut = True
        self.entries.append(Message("assistant", text, subagent=sub))

    def call(self, name: str, given: Any, call_id: str, sub: bool = False, api_id: bool = True) -> int:
        """A tool call the model made, in order; its index. api_id False: call_id is the
        stream's own name for it (its result is paired by it), not the API's tool call id the
        gateway saw, so the call keeps none."""
        parsed, raw = parse_input(given, INPUT_STRING_CHARS)
        call = _Call(len(self.calls), name, parsed, raw, sub, call_id if api_id else "")
        self.calls.append(call)
        if call_id:
            self.by_id.setdefault(call_id, call.index)
        self.entries.append(_Slot(call.index))
        return call.index

    def result(self, call_id: str, text: str, error: bool) -> None:
        """What a tool call gave back (the first result of a call is its own)."""
        index = self.by_id.get(call_id, -1)
        if index >= 0 and index not in self.results:
            self.results[index] = (cut(text, INPUT_STRING_CHARS), error)
        self.entries.append(ToolResult(index, text, error))

    def finish(self) -> Transcript:
        out = self.out
        calls = [
            ToolCall(
                c.index,
                c.tool,
                c.input,
                c.raw,
                c.subagent,
                c.id,
                *(self.results[c.index] if c.index in self.results else (None, None)),
            )
            for c in self.calls
        ]
        out.tool_calls = calls
        out.entries = [calls[e.index] if isinstance(e, _Slot) else e for e in self.entries]
        result_text = (out.result or {}).get("result")
        reply = result_text if isinstance(result_text, str) and result_text else self.last_main_text
        if len(reply) > REPLY_CHARS:
            out.notes.append(f"the reply was cut at {REPLY_CHARS} characters (of {len(reply)})")
            reply = reply[:REPLY_CHARS]
        out.reply = reply
        if self.text_cut:
            out.notes.append(f"the transcript was cut at {TRANSCRIPT_CHARS} characters")
        if out.long_lines:
            out.notes.append(f"{out.long_lines} stream lines longer than {MAX_LINE_BYTES} bytes were skipped")
        if out.bad_lines:
            out.notes.append(f"{out.bad_lines} stream lines were not JSON objects")
        return out
