"""A task as a conversation: the turns after prompt.md (`[[turns]]` in task.toml) and an earlier
conversation the first turn continues (`history`).

Turn 1 is prompt.md. Each `[[turns]]` table is the next user message, in order:

    [[turns]]
    prompt = "Now add a test for it."      # or prompt_file = "turn2.md", a file of the task
    until = "tests_pass"                   # optional: play it again until this grader passes
    max_plays = 3                          # ... at most this often (default 3, at most 10)

A cell plays them in one conversation (each turn a session of the agent CLI that resumes the one
before). `until` names a deterministic grader of the task; after each play of the turn it is
graded on what the conversation did so far, and the turn is played again (the same message)
until it passes or `max_plays` is reached; the conversation then goes on either way.

`history = "history.jsonl"` names a file of the task folder in `claude plugin eval`'s
`context.history_file` format, read as it is: a Claude Code session transcript, one JSON object a
line (`{"type": "user", "message": {...}}`, ...). The first turn resumes it, so what the agent
sees is a continuation. Every problem names task.toml's key or the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.errors import excerpt

__all__ = [
    "DEFAULT_PLAYS",
    "History",
    "MAX_HISTORY_BYTES",
    "MAX_PLAYS",
    "MAX_TURNS",
    "TURN_KEYS",
    "Turn",
    "parse_history",
    "parse_turns",
]

TURN_KEYS = ("prompt", "prompt_file", "until", "max_plays")
MAX_TURNS = 20  # turns of one conversation, prompt.md's included
DEFAULT_PLAYS = 3  # a turn with `until` is played at most this often unless it says
MAX_PLAYS = 10
MAX_HISTORY_BYTES = 8 * 1024 * 1024

Problem = Callable[[str], None]


@dataclass(frozen=True)
class Turn:
    """One user message after the first (`number` 2 is the first `[[turns]]` table)."""

    number: int
    prompt: str
    until: str | None = None  # a grader's name
    max_plays: int = 1

    def describe(self) -> dict[str, Any]:
        return {"prompt": self.prompt, "until": self.until, "max_plays": self.max_plays}


@dataclass(frozen=True)
class History:
    """An earlier conversation the first turn continues, as the file holds it."""

    name: str  # the file's name in the task folder
    data: bytes = field(repr=False)
    messages: tuple[tuple[str, str], ...] = ()  # (role, text) of its user and assistant lines

    @property
    def text(self) -> str:
        """Its messages' texts, as what reached the model (a grader's model_input) starts."""
        return "\n\n".join(text for _, text in self.messages)


def _file_of(folder: Path, named: object) -> Path | None:
    """The file of the task folder a key names (relative, inside it, not a link), else None."""
    if not isinstance(named, str) or Path(named).is_absolute() or ".." in Path(named).parts:
        return None
    path = folder / named
    return path if path.is_file() and not path.is_symlink() else None


def _prompt_of(table: Mapping[str, Any], folder: Path, where: str, problem: Problem) -> str | None:
    given, named = table.get("prompt"), table.get("prompt_file")
    if (given is None) == (named is None):
        problem(f"{where}: give one of 'prompt' (the message) or 'prompt_file' (a file of the task)")
        return None
    if given is not None:
        if not isinstance(given, str) or not given.strip():
            problem(f"{where}: key 'prompt' must be a non-empty string, not {excerpt(given)}")
            return None
        return given.strip()
    path = _file_of(folder, named)
    if path is None:
        problem(f"{where}: key 'prompt_file' must name a file of the task folder, not {excerpt(named)}")
        return None
    try:
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        problem(f"{where}: key 'prompt_file': {named} cannot be read as UTF-8 text: {exc}")
        return None
    if not text:
        problem(f"{where}: key 'prompt_file': {named} is empty")
        return None
    return text


def parse_turns(raw: object, folder: Path, problem: Problem) -> tuple[Turn, ...]:
    """task.toml's `turns` (None: a task of one turn)."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not raw or not all(isinstance(t, Mapping) for t in raw):
        problem(
            "task.toml: key 'turns' must be [[turns]] tables, each a user message "
            '(prompt = "..." or prompt_file = "...")'
        )
        return ()
    if len(raw) + 1 > MAX_TURNS:
        problem(f"task.toml: key 'turns' holds {len(raw)} turns; a conversation has at most {MAX_TURNS}")
        return ()
    turns: list[Turn] = []
    for n, table in enumerate(raw, 2):
        where = f"task.toml: [[turns]] #{n - 1} (turn {n})"
        unknown = sorted(set(table) - set(TURN_KEYS))
        if unknown:
            problem(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(TURN_KEYS)})")
            continue
        prompt = _prompt_of(table, folder, where, problem)
        until = table.get("until")
        if until is not None and (not isinstance(until, str) or not until):
            problem(f"{where}: key 'until' must name a grader of the task, not {excerpt(until)}")
            continue
        plays = table.get("max_plays", DEFAULT_PLAYS if until is not None else 1)
        if isinstance(plays, bool) or not isinstance(plays, int) or not 1 <= plays <= MAX_PLAYS:
            problem(
                f"{where}: key 'max_plays' must be a whole number from 1 to {MAX_PLAYS}, not {excerpt(plays)}"
            )
            continue
        if until is None and "max_plays" in table:
            problem(f"{where}: key 'max_plays' caps the plays of a turn with 'until'; this turn has none")
            continue
        if prompt is not None:
            turns.append(Turn(n, prompt, until, plays))
    return tuple(turns)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        return "\n".join(
            str(b.get("text", "")) for b in content if isinstance(b, Mapping) and b.get("type") == "text"
        )
    return ""


def parse_history(raw: object, folder: Path, problem: Problem) -> History | None:
    """task.toml's `history`: a Claude Code session transcript of the task folder, read as it is."""
    if raw is None:
        return None
    where = "task.toml: key 'history'"
    path = _file_of(folder, raw)
    if path is None:
        problem(f"{where} must name a file of the task folder (a session's JSON lines), not {excerpt(raw)}")
        return None
    if path.stat().st_size > MAX_HISTORY_BYTES:
        problem(f"{raw}: over {MAX_HISTORY_BYTES} bytes")
        return None
    data = path.read_bytes()
    messages: list[tuple[str, str]] = []
    for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            problem(
                f"{raw}: line {n} is not JSON (a history is a Claude Code session: one JSON object a line)"
            )
            return None
        if not isinstance(event, dict):
            problem(f"{raw}: line {n} is not a JSON object")
            return None
        message = event.get("message")
        if event.get("type") in ("user", "assistant") and isinstance(message, Mapping):
            text = _text_of(message.get("content"))
            if text.strip():
                messages.append((str(event["type"]), text))
    if not messages:
        problem(f"{raw}: holds no user or assistant message to continue")
        return None
    return History(path.name, data, tuple(messages))
