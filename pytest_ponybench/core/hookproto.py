"""The hook protocol as claude speaks it: what a hook's answer gives the model, whether it decided
something, and whether the hook crashed.

A command hook answers with its exit status, its stdout and its stderr (claude 2.1.332, measured
through `--include-hook-events`). Exit 0: plain stdout is context where the event takes it
(SessionStart, UserPromptSubmit); JSON is read instead of shown, its
`hookSpecificOutput.additionalContext` given to the model, its `decision` (`block`, `approve`),
`hookSpecificOutput.permissionDecision` (`allow`, `deny`, `ask`) or `continue: false` a decision;
`{"async": true}` goes on in the background. Exit 2 blocks where the event can be blocked (the
CLI hands stderr to the model: a decision, the CLI reports it with outcome `error`); anywhere
else, and any other non-zero status, the hook failed and the CLI goes on without it.

Pure functions over `core.transcript.HookEvent` and the text a hook printed.
"""

from __future__ import annotations

import json
from typing import Any

from pytest_ponybench._util import textfiles
from pytest_ponybench.core.transcript import HookEvent

__all__ = [
    "BLOCKING_EVENTS",
    "PLAIN_CONTEXT_EVENTS",
    "context_of",
    "crashed",
    "decided",
    "failure",
    "is_async",
    "top_level_context",
]

# Events whose hook blocks with exit 2 (its stderr goes to the model): a decision, not a crash.
BLOCKING_EVENTS = frozenset(
    {"PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"}
)

# Events whose hook's plain stdout is given to the model as context (elsewhere only JSON's
# additionalContext is).
PLAIN_CONTEXT_EVENTS = frozenset({"SessionStart", "UserPromptSubmit"})


def _json(answer: str) -> dict[str, Any] | None:
    """The answer as a JSON object, or None (plain text, or JSON that is not an object)."""
    try:
        data = json.loads(answer)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def is_async(answer: str) -> bool:
    """The hook answered `{"async": true}`: it goes on in the background, its output comes later."""
    data = _json(answer)
    return data is not None and data.get("async") is True


def context_of(answer: str, event: str | None = None) -> str | None:
    """What of one hook answer the CLI gives the model: plain stdout as it is (where the event
    takes it; any event when none is named); JSON's hookSpecificOutput.additionalContext (the
    JSON itself never; an async answer nothing yet); None for nothing."""
    text = answer.strip()
    if not text:
        return None
    data = _json(text)
    if data is None:
        return text if event is None or event in PLAIN_CONTEXT_EVENTS else None
    specific = data.get("hookSpecificOutput")
    context = specific.get("additionalContext") if isinstance(specific, dict) else None
    return (context.strip() or None) if isinstance(context, str) and not is_async(text) else None


def top_level_context(answer: str) -> str | None:
    """What a CLI that reads a JSON answer's top-level additionalContext gives the model
    (Copilot CLI): that context; nothing of plain stdout, nor of an async answer yet."""
    data = _json(answer.strip())
    if data is None or is_async(answer.strip()):
        return None
    context = data.get("additionalContext")
    return (context.strip() or None) if isinstance(context, str) else None


def decided(hook: HookEvent) -> bool:
    """The hook decided something: a JSON decision, permissionDecision or `continue: false`, or
    exit 2 where its event can be blocked."""
    if hook.exit_code == 2 and hook.event in BLOCKING_EVENTS:
        return True
    if hook.exit_code not in (None, 0):
        return False
    data = _json(hook.stdout)
    if data is None:
        return False
    specific = data.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    return (
        bool(data.get("decision"))
        or bool(specific.get("permissionDecision"))
        or bool(specific.get("decision"))
        or data.get("continue") is False
    )


def crashed(hook: HookEvent) -> bool:
    """The hook ran and failed: a non-zero exit that is not a block, or the CLI's own word for a
    failure (a timeout, a command it could not start) without a block."""
    if not hook.ended or (hook.exit_code == 2 and hook.event in BLOCKING_EVENTS):
        return False
    return hook.failed


def failure(hook: HookEvent, limit: int = textfiles.QUOTE_CHARS) -> str:
    """A crashed hook in words: "exited 1: <its stderr, by its ends>" (its stdout when stderr
    is empty)."""
    if hook.exit_code not in (None, 0):
        how = f"exited {hook.exit_code}"
    else:  # the CLI's own word: a timeout, an answer it could not read
        how = f"ended in {hook.outcome or 'error'}" + ("" if hook.exit_code is None else " (exit 0)")
    said = textfiles.quote(hook.stderr or hook.stdout, limit)
    return f"{how}: {said}" if said else f"{how}, printing nothing"
