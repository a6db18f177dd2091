"""The offline models: their names, and one table from each name to the agent that plays it.

Every model the server plays is an entry of `AGENTS` (a fixed name) or of `PATTERNS` (a name
that carries a parameter), and `lookup` is the server's one dispatch over both, a hold suffix
allowed. Adding an offline model is one entry here and a test through the real CLI.

An agent answers one request from what the request and its cell's script hold (`Turn`), and
from `Memory` for what must outlive a request (a storm's start, a once-only fault), so a retry
of the CLI repeats the same step. The tools the CLI offers (claude 2.1.332) include ``Write
{file_path, content}``, ``Edit {file_path, old_string, new_string, replace_all}`` and ``Read
{file_path, offset, limit, pages, allow_large}``, absolute paths. Write creates parent
directories (and writes outside the cwd under bypassPermissions). Edit and Write over a seeded
file work WITHOUT a prior Read, although both tool descriptions say they fail; the scripted
agents Read first anyway, in case a version enforces it.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from pytest_ponybench.agents.dialect import DIALECTS, Dialect, dialect_of
from pytest_ponybench.core.endpoint import OFFLINE_PREFIX, is_offline, split_hold  # the naming is core's
from pytest_ponybench.core.judge import offline as offline_judge
from pytest_ponybench.offline import coin, escape, wire
from pytest_ponybench.offline import responses as offline_responses
from pytest_ponybench.offline.script import CellScript, Session, resolve_call

__all__ = [
    "AGENTS",
    "ESCAPE_MODEL",
    "OFFLINE_MODELS",
    "OFFLINE_PREFIX",
    "PATTERNS",
    "Agent",
    "Answer",
    "Memory",
    "Served",
    "Turn",
    "is_main_loop",
    "is_offline",
    "is_served",
    "lookup",
    "split_hold",
    "unserved",
]

# A hostile agent: tries to reach the harness from its cell, then writes the good reference.
ESCAPE_MODEL = "offline-escape"

# What an agent answers: a message, a plain JSON answer, a broken stream, or an error.
Answer = wire.Reply | wire.Plain | wire.Fault | wire.ApiError

# A request with less room than this is a side request (title, quota), not the agent loop.
_SIDE_MAX_TOKENS = 1024
_PARTIAL_TEXT = "Let me look at the task and write the file it asks for."
_IDLE_TEXT = (
    "I won't edit files here; this is the approach, for you to apply where the task says.\n\n"
    "```python\n"
    "def unique(items: list[str]) -> list[str]:\n"
    '    """The items without repeats, first occurrence kept."""\n'
    "    return list(dict.fromkeys(items))\n"
    "```\n"
)


def is_main_loop(body: dict[str, Any]) -> bool:
    """Whether the request is the agent's own turn, not a side request of the CLI."""
    max_tokens = body.get("max_tokens")
    roomy = not isinstance(max_tokens, int) or max_tokens >= _SIDE_MAX_TOKENS
    return bool(body.get("tools")) and roomy


class Memory:
    """What the agents of one server remember across requests and registrations."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._began: dict[str, float] = {}
        self._spent: set[str] = set()

    def since(self, key: str) -> float:
        """Seconds since the first call with this key (0.0 on that first call)."""
        with self._lock:
            began = self._began.setdefault(key, time.monotonic())
        return time.monotonic() - began

    def first(self, key: str) -> bool:
        """True the first time this key is asked about, False ever after."""
        with self._lock:
            first = key not in self._spent
            self._spent.add(key)
        return first


@dataclass(frozen=True)
class Turn:
    """One request to a model's messages endpoints, as its agent sees it."""

    model: str  # the name played, its hold suffix taken off
    body: dict[str, Any]
    cell_id: str
    script: CellScript
    memory: Memory
    counting: bool = False  # a count_tokens request, not a messages one

    @property
    def main_loop(self) -> bool:
        return is_main_loop(self.body)


@dataclass(frozen=True)
class Agent:
    """How one model answers. `play` answers the agent loop; the flags say what else reaches it:
    otherwise a side request of the CLI gets "OK." and count_tokens gets the count."""

    play: Callable[[Turn], Answer]
    plays_side_requests: bool = False
    plays_count_tokens: bool = False

    def __call__(self, turn: Turn) -> Answer:
        if turn.counting and not self.plays_count_tokens:
            return wire.counted(turn.body)
        if not self.plays_side_requests and not turn.main_loop:
            return wire.text("OK.")
        return self.play(turn)


# ---------------------------------------------------------------- scripted writers


def _declared_step(
    messages: list[Any], script: CellScript, session: Session, say: Dialect
) -> wire.Reply | None:
    """The session's next declared call in the CLI's own names, or None when all were made: the
    calls made so far are the conversation's tool calls that match the declared ones, in order
    (failed or not, so the agent always goes on)."""
    calls = [say.call(*resolve_call(tool, given, script.workspace)) for tool, given in session.calls]
    made = 0
    for block in wire.blocks(messages, "assistant"):
        if made == len(calls) or block.get("type") != "tool_use":
            continue
        tool, given = calls[made]
        sent = block.get("input")
        if (
            # A CLI may take a call by another case of its name (OpenCode's `glob` for `Glob`)
            # and keep it so in the conversation: the call was made all the same.
            str(block.get("name")).lower() == tool.lower()
            and isinstance(sent, dict)
            and all(sent.get(k) == v for k, v in given.items())
        ):
            made += 1
    return wire.tools([calls[made]]) if made < len(calls) else None


def _no_tools(rel: str, offered: set[Any]) -> str:
    """Why the scripted agent cannot write: what was offered first (an API error's message is
    cut short by the CLIs), then the tools it knows."""
    names = ", ".join(sorted(str(n) for n in offered)[:30]) or "none"
    known = "; ".join(f"{name} {d.write}/{d.edit}" for name, d in DIALECTS.items())
    return f"ponybench offline: no tool to write {rel} with; the request offers {names} (known: {known})"


def _agent_step(
    body: dict[str, Any], script: CellScript, files: dict[str, bytes], session: Session | None = None
) -> wire.Reply | wire.ApiError:
    """The next step, derived only from the conversation and the disk, so a retry repeats it.

    First the session's declared tool calls, one per turn, then one turn of parallel Reads of
    every existing file to replace, then one file per turn:
    Write where it is missing (or empty, or CRLF, to keep its bytes exact), else Edit of the
    whole content. A file is done once a Write or Edit of it is in the conversation, failed or
    not, so the agent always ends, with the session's reply if it declares one. Contents are
    text: invalid UTF-8 is written as U+FFFD.
    """
    messages = body.get("messages")
    messages = wire.since_prompt(messages if isinstance(messages, list) else [], script.prompt)
    tools = body.get("tools")
    tool_names = {t.get("name") for t in tools if isinstance(t, dict)} if isinstance(tools, list) else set()
    say = dialect_of(tool_names)
    if session is not None and (declared := _declared_step(messages, script, session, say)) is not None:
        return declared
    failed = {
        b.get("tool_use_id")
        for b in wire.blocks(messages, "user")
        if b.get("type") == "tool_result" and b.get("is_error")
    }
    paths = {say.write: say.write_path, say.edit: say.edit_path, say.read: say.read_path}
    verbs = {say.write: "Write", say.edit: "Edit", say.read: "Read"}
    touched: dict[str, set[str]] = {}  # path -> what was done ("Write", ...), "!" marking a failure
    for call in wire.blocks(messages, "assistant"):
        given, name = call.get("input"), str(call.get("name"))
        if call.get("type") == "tool_use" and isinstance(given, dict) and name in paths:
            if isinstance(path := given.get(paths[name]), str):
                mark = "!" if call.get("id") in failed else ""
                touched.setdefault(os.path.normpath(path), set()).add(f"{verbs[name]}{mark}")
    wrote: list[str] = []
    broke: list[str] = []
    pending: list[tuple[str, str, bytes | None, bool]] = []  # rel, path, current, read
    for rel in sorted(files):
        path = os.path.normpath(script.workspace / rel)
        done = touched.get(path, set())
        if done & {"Write", "Edit", "Write!", "Edit!"}:
            (wrote if done & {"Write", "Edit"} else broke).append(rel)
            continue
        try:
            current: bytes | None = Path(path).read_bytes()
        except OSError:  # missing, or a directory in the way: Write reports that to the CLI
            current = None
        if current != files[rel]:
            pending.append((rel, path, current, "Read" in done or "Read!" in done))
    if not pending:
        if session is not None and session.reply is not None:
            return wire.text(session.reply)
        summary = f"Done: wrote {', '.join(wrote)}." if wrote else "Done: nothing needed changing."
        return wire.text(summary + (f" Failed: {', '.join(broke)}." if broke else ""))
    if not {say.write, say.edit} <= tool_names:
        # An error, not a reply: a CLI whose tools it does not know would otherwise end its
        # session with exit 0 and nothing written, a failure that measures nothing of the arm.
        return wire.ApiError(400, "invalid_request_error", _no_tools(pending[0][0], tool_names))
    unread = [path for _, path, current, read in pending if current is not None and not read]
    if unread and say.read in tool_names:
        return wire.tools([(say.read, {say.read_path: path}) for path in unread])
    rel, path, current, _ = pending[0]
    new = files[rel].decode("utf-8", errors="replace")
    try:
        old = (current or b"").decode("utf-8")
    except UnicodeDecodeError:
        old = ""
    if say.patch:  # one patch: the file added, or its whole content replaced
        patch = offline_responses.patch_for(path, new, None if current is None else old)
        return wire.tools([(say.write, {say.write_path: path, say.write_content: patch})])
    if (not old or "\r" in old + new) and not (say.create_only and current is not None):
        # Edit cannot anchor on nothing; a CLI whose create fails on an existing file edits it.
        return wire.tools([(say.write, {say.write_path: path, say.write_content: new})])
    return wire.tools([(say.edit, {say.edit_path: path, say.edit_old: old, say.edit_new: new})])


# ---------------------------------------------------------------- behaviours


def _writes_good(turn: Turn) -> Answer:
    return _agent_step(turn.body, turn.script, turn.script.files(True), turn.script.session(True))


def _writes_bad(turn: Turn) -> Answer:
    return _agent_step(turn.body, turn.script, turn.script.files(False), turn.script.session(False))


def _idles(turn: Turn) -> Answer:
    return wire.text(_IDLE_TEXT)


def _overloaded_once(turn: Turn) -> Answer:
    # Once per cell id, across registrations: a harness retry of the cell is the "then" of
    # "529 once, then a normal session".
    if turn.memory.first(turn.cell_id):
        return wire.ApiError(529, "overloaded_error", f"{turn.model}: scripted first-request 529")
    return _writes_good(turn)


def _escapes(turn: Turn) -> Answer:
    attacks = escape.next_calls(turn.body, turn.script.workspace)
    return wire.tools(attacks) if attacks else _writes_good(turn)


def _tosses(turn: Turn) -> Answer:
    # Directed by what reached it: a plugin skill first, then good or bad by the cell's coin.
    if (call := coin.skill_call(turn.body)) is not None:
        return wire.Reply([call], "tool_use", f"Skill {call['input']['skill']}")
    good = coin.draws_good(turn.cell_id, coin.directed_good(turn.body))
    return _agent_step(turn.body, turn.script, turn.script.good if good else turn.script.bad)


def _judges(turn: Turn) -> Answer:
    return wire.text(offline_judge.answer(turn.body))  # a judge call: no tools, one answer


def _fails_with(status: int, kind: str) -> Agent:
    """Every request answered with this HTTP error: the pre-flight's credential check (a
    count_tokens request) meets the fault too."""

    def play(turn: Turn) -> Answer:
        return wire.ApiError(status, kind, f"{turn.model}: scripted HTTP {status} ({kind})")

    return Agent(play, plays_side_requests=True, plays_count_tokens=True)


def _breaks(kind: Literal["hang", "cut", "garbage"]) -> Agent:
    """Every messages request answered with a broken stream of a short text."""

    def play(turn: Turn) -> Answer:
        return wire.Fault(kind, wire.text(_PARTIAL_TEXT))

    return Agent(play, plays_side_requests=True)


REFERENCE = Agent(_writes_good)

# Model name -> agent, in the order the server lists them (/v1/models, the unknown-model error).
AGENTS: Mapping[str, Agent] = MappingProxyType(
    {
        "offline-reference": REFERENCE,
        "offline-flawed": Agent(_writes_bad),
        "offline-idle": Agent(_idles),
        "offline-error-400": _fails_with(400, "invalid_request_error"),
        "offline-error-401": _fails_with(401, "authentication_error"),
        "offline-error-429": _fails_with(429, "rate_limit_error"),
        "offline-error-500": _fails_with(500, "api_error"),
        "offline-overloaded": _fails_with(529, "overloaded_error"),
        "offline-overloaded-once": Agent(_overloaded_once),
        "offline-hang": _breaks("hang"),
        "offline-cut": _breaks("cut"),
        "offline-garbage": _breaks("garbage"),
        ESCAPE_MODEL: Agent(_escapes),
        coin.COIN_MODEL: Agent(_tosses),
        offline_judge.OFFLINE_JUDGE: Agent(_judges, plays_side_requests=True),
    }
)
OFFLINE_MODELS: tuple[str, ...] = tuple(AGENTS)


def _storm(name: re.Match[str]) -> Agent:
    """529 for every request until N seconds after this server's first request for the name,
    then the reference."""

    def play(turn: Turn) -> Answer:
        if turn.memory.since(turn.model) < float(name[1]):
            return wire.ApiError(529, "overloaded_error", f"{turn.model}: scripted overload, {name[1]}s long")
        return REFERENCE(turn)

    return Agent(play, plays_side_requests=True)


# Weather and latency are data in the model's name, so a grid needs no extra setting:
# `offline-overloaded-for-<N>s` answers 529 for N seconds from this server's first request for
# it, then plays the reference; `<model>@<N>s` holds a session's last reply until N seconds
# after its first request, so every session lasts about N seconds, like a live one.
PATTERNS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Agent]], ...] = (
    (re.compile(r"^offline-overloaded-for-(\d+(?:\.\d+)?)s$"), _storm),
)


@dataclass(frozen=True)
class Served:
    """A model name as the server plays it: the name without its hold, its agent, the hold."""

    name: str
    agent: Agent
    hold_s: float | None = None


def lookup(model: str) -> Served | None:
    """The agent that plays this model name (a hold suffix allowed), or None if none does."""
    name, hold_s = split_hold(model)
    agent = AGENTS.get(name)
    if agent is None:
        agent = next((make(m) for pattern, make in PATTERNS if (m := pattern.match(name))), None)
    return None if agent is None else Served(name, agent, hold_s)


def is_served(model: str) -> bool:
    """Whether this server plays the model (a hold suffix allowed)."""
    return lookup(model) is not None


def unserved(model: object, body: dict[str, Any]) -> Answer:
    """The answer to a request for a model no agent plays."""
    offline = isinstance(model, str) and is_offline(model)
    if not offline and not is_main_loop(body):
        return wire.text("OK.")  # a side request under the CLI's small model
    # A 404 makes the CLI print its own "issue with the selected model (<name>)", right for a
    # real model name; for an unknown offline-* name our list must show.
    return wire.ApiError(
        400 if offline else 404,
        "invalid_request_error" if offline else "not_found_error",
        f"model {model!r} is not served by the ponybench offline server; "
        f"known models: {', '.join(OFFLINE_MODELS)}",
    )
