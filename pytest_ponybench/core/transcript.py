"""One agent session as its CLI's stream tells it: the typed transcript every reader uses.

An adapter in `agents/` parses a session's stream once into a `Transcript`; the verdict on the
session (invalid, tampered), the audit, the graders' evidence, the skills it used, the record's
figures, the pre-flight's proofs and the report read it, never the stream. Everything in it is
agent-written text: it is only ever matched or quoted. Its size is bounded by the stream's cap
where it is captured and by `MAX_LINE_BYTES` a line; what graders read of it is cut at the sizes
below (`core.bounded`), and what the report shows at the report's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "Entry",
    "HookEvent",
    "INPUT_STRING_CHARS",
    "MAX_LINE_BYTES",
    "Message",
    "ModelView",
    "Note",
    "REPLY_CHARS",
    "TRANSCRIPT_CHARS",
    "ToolCall",
    "ToolResult",
    "Transcript",
    "Usage",
    "joined",
]

# How much of a session is read. Larger pieces are cut (and `Transcript.notes` says so), so a
# regex or a judge prompt never runs over more than this, whatever the session wrote.
REPLY_CHARS = 200_000
TRANSCRIPT_CHARS = 2_000_000  # the assistant's text, all turns together
INPUT_STRING_CHARS = 200_000  # each string of a tool input
MAX_LINE_BYTES = 8_000_000  # a longer stream line is skipped and counted


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    @property
    def context(self) -> int:
        """What one request carried in: input plus cache read and cache write."""
        return self.input_tokens + self.cache_read_tokens + self.cache_write_tokens


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model made, in order; `input` is None when it was not a JSON object.
    `result` and `is_error` are what the CLI gave the model back (None: no result seen)."""

    index: int
    tool: str
    input: Mapping[str, Any] | None
    raw: str = ""  # the input as it came, when it did not parse
    subagent: bool = False  # made inside a subagent (Agent/Task), not by the main agent
    id: str = ""
    result: str | None = None
    is_error: bool | None = None

    @property
    def succeeded(self) -> bool:
        """The CLI ran it and reported no error."""
        return self.is_error is False


@dataclass(frozen=True)
class HookEvent:
    """One hook the CLI ran: its event (`SessionStart`), its name as the CLI gives it, its exit
    status and what it printed. `ended` False: the CLI reported its start and no end."""

    event: str
    name: str = ""
    ended: bool = True
    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    outcome: str = ""  # the CLI's own word (success, error, ...) where it gives one
    id: str = ""

    @property
    def failed(self) -> bool:
        return (self.exit_code not in (None, 0)) or self.outcome in ("error", "failure", "cancelled")


@dataclass(frozen=True)
class Message:
    """A text the model wrote (`role` assistant; `thinking` for its thinking) or the user's."""

    role: str
    text: str
    subagent: bool = False
    thinking: bool = False


@dataclass(frozen=True)
class ToolResult:
    """What a tool call gave back, where it falls in the session's order."""

    call: int  # the ToolCall's index; -1 when no call of the session has its id
    text: str
    is_error: bool = False


@dataclass(frozen=True)
class Note:
    """Anything else the stream said, in words: the session's start, its end, an event the
    parser does not know, a line that was not JSON."""

    title: str
    text: str
    error: bool = False
    kind: str = "event"  # session | final | event


Entry = Message | ToolCall | ToolResult | HookEvent | Note


@dataclass(frozen=True)
class ModelView:
    """The session as the model gateway saw it: every text that reached the model (system
    prompts, messages, a hook's context among them, tool results) and every text it answered
    (its text and the tool calls it asked for), each cut at TRANSCRIPT_CHARS."""

    input: str = ""
    output: str = ""


@dataclass
class Transcript:
    """One session as its CLI's stream tells it, parsed once by the CLI's adapter."""

    agent: str = "claude"
    entries: list[Entry] = field(default_factory=list)  # in the stream's order
    tool_calls: list[ToolCall] = field(default_factory=list)  # every call, subagents' included
    hook_events: list[HookEvent] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # the assistant's texts (TRANSCRIPT_CHARS in all)
    reply: str = ""  # the session's answer: its end event's text, else the main agent's last text
    usage: Usage = field(default_factory=Usage)  # as the CLI summed it at the end
    cli_usage: bool = True  # the CLI reports token counts at all (Copilot's stream has none)
    cost_usd: float | None = None  # the CLI's own figure
    turns: int | None = None  # the CLI's own count
    assistant_turns: int = 0  # the main agent's messages, counted here
    duration_ms: int | None = None
    denials: int = 0
    subagents: int = 0
    peak_context_tokens: int = 0
    session_id: str | None = None
    cwd: str | None = None  # the workspace as the session saw it (absolute), from its start event
    # The CLI's start event (tools, skills, plugins loaded), in claude's shape: an adapter whose
    # CLI has none gathers the same keys from the events that say them.
    init: dict[str, Any] | None = None
    # The CLI's end event as it came, with claude's keys (subtype, is_error, num_turns,
    # api_error_status, result) where another CLI spells them otherwise or has no end event.
    result: dict[str, Any] | None = None
    retry_after_s: float | None = None  # the last delay the CLI computed for a retry
    notes: list[str] = field(default_factory=list)  # what was cut or skipped while reading
    # What only a stream written by something other than the CLI shows.
    bad_lines: int = 0  # lines that were not JSON objects
    long_lines: int = 0  # lines over MAX_LINE_BYTES, skipped
    holes: int = 0  # lines holding NUL bytes: the CLI escapes every control character
    results: int = 0  # end events: one, from the CLI
    after_result: int = 0  # events after the first end event

    @property
    def ended(self) -> bool:
        """The CLI said the session ended."""
        return self.result is not None

    @property
    def text(self) -> str:
        """The assistant's texts as one transcript (graders' `transcript` target)."""
        return "\n\n".join(self.texts)

    @property
    def tool_uses(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for call in self.tool_calls:
            counts[call.tool] = counts.get(call.tool, 0) + 1
        return counts

    @property
    def plugins(self) -> list[str]:
        """The plugins the session loaded, by name, as its start event lists them."""
        listed = (self.init or {}).get("plugins") or []
        return [str(p.get("name") if isinstance(p, dict) else p) for p in listed]

    def hooks_of(self, event: str) -> list[HookEvent]:
        return [h for h in self.hook_events if h.event == event]


def _sum(values: Sequence[int | float | None]) -> Any:
    given = [v for v in values if v is not None]
    return sum(given) if given else None


def joined(parts: Sequence[Transcript]) -> Transcript:
    """A conversation's sessions as one transcript, in order: entries, calls (numbered on across
    them) and texts one after another; the reply, the end event and the id the last session's;
    the start event the first's; figures summed (the peak context the largest)."""
    if len(parts) == 1:
        return parts[0]
    out = Transcript(agent=parts[0].agent if parts else "claude")
    for part in parts:
        offset = len(out.tool_calls)
        calls = {c.index: replace(c, index=c.index + offset) for c in part.tool_calls}
        out.tool_calls += [calls[c.index] for c in part.tool_calls]
        for entry in part.entries:
            if isinstance(entry, ToolCall):
                out.entries.append(calls.get(entry.index, entry))
            elif isinstance(entry, ToolResult) and entry.call >= 0:
                out.entries.append(replace(entry, call=entry.call + offset))
            else:
                out.entries.append(entry)
        out.hook_events += part.hook_events
        out.texts += part.texts
        out.notes += part.notes
    last = parts[-1] if parts else Transcript()
    out.reply, out.result, out.retry_after_s = last.reply, last.result, last.retry_after_s
    out.session_id = next((p.session_id for p in reversed(parts) if p.session_id), None)
    out.cwd = next((p.cwd for p in parts if p.cwd), None)
    out.init = next((p.init for p in parts if p.init is not None), None)
    out.usage = Usage(
        sum(p.usage.input_tokens for p in parts),
        sum(p.usage.output_tokens for p in parts),
        sum(p.usage.cache_read_tokens for p in parts),
        sum(p.usage.cache_write_tokens for p in parts),
    )
    out.cost_usd = _sum([p.cost_usd for p in parts])
    out.turns = _sum([p.turns for p in parts])
    out.duration_ms = _sum([p.duration_ms for p in parts])
    out.peak_context_tokens = max((p.peak_context_tokens for p in parts), default=0)
    for name in (
        "assistant_turns",
        "denials",
        "subagents",
        "bad_lines",
        "long_lines",
        "holes",
        "after_result",
    ):
        setattr(out, name, sum(getattr(p, name) for p in parts))
    out.results = max((p.results for p in parts), default=0)  # each session's own end: one
    return out
