"""One agent session as its CLI's stream tells it: the typed transcript every reader uses.

An adapter in `agents/` parses a session's stream once into a `Transcript`; the verdict on the
session (invalid, tampered), the audit, the graders' evidence, the skills it used, the record's
figures, the pre-flight's proofs and the report read it, never the stream. Everything in it is
agent-written text: it is only ever matched or quoted. Its size is bounded by the stream's cap
where it is captured and by `MAX_LINE_BYTES` a line; what graders read of it is cut at the sizes
below (`core.bounded`), and what the report shows at the report's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
    cost_usd: float | None = None  # the CLI's own figure
    turns: int | None = None  # the CLI's own count
    assistant_turns: int = 0  # the main agent's messages, counted here
    duration_ms: int | None = None
    denials: int = 0
    subagents: int = 0
    peak_context_tokens: int = 0
    session_id: str | None = None
    cwd: str | None = None  # the workspace as the session saw it (absolute), from its start event
    init: dict[str, Any] | None = None  # the CLI's start event (tools, skills, plugins loaded)
    result: dict[str, Any] | None = None  # the CLI's end event, as it came
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
