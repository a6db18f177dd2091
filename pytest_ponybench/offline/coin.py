"""The directed offline model (`offline-coin`): an arm's effect, known in advance, through the real CLI.

Each cell writes the task's good reference with probability `good`, else the bad one. `good` is
whatever reached the model in the request: a directive line `ponybench-offline: good=0.9` in
the appended system prompt or in a plugin's SessionStart hook output; without one, 0.5. The
draw is a hash of the cell id, so a rerun of a cell writes the same files and two arms with the
same directive are two independent coins. That makes an offline A/B with a true effect of
exactly (0.9 - 0.5) on the pass rate, which the verdict must find; an A/A must find nothing.

When the request offers a plugin's skill (the CLI lists skills for the `Skill` tool as
`plugin:skill`), the model first invokes it once, as an agent that follows its tools would, so
skill usage is measured from the stream the CLI really writes.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

from pytest_ponybench.agents.dialect import dialect_of

__all__ = [
    "COIN_MODEL",
    "DEFAULT_GOOD",
    "DIRECTIVE",
    "describe",
    "directed_good",
    "draws_good",
    "offered_plugin_skills",
    "skill_already_called",
    "skill_call",
]

COIN_MODEL = "offline-coin"
DEFAULT_GOOD = 0.5
DIRECTIVE = re.compile(r"ponybench-offline:\s*good=([01](?:\.\d+)?|\.\d+)")
# The CLI's listing of skills in the conversation, one "- name: description" line each.
_SKILL_LIST = "skills are available for use with the Skill tool"
_SKILL_LINE = re.compile(r"^- ([A-Za-z0-9_.:/-]+):", re.M)


def _texts(body: dict[str, Any]) -> Iterator[str]:
    """The system prompt and every text the conversation holds that is not a tool result."""
    system = body.get("system")
    if isinstance(system, str):
        yield system
    elif isinstance(system, list):
        yield from (str(b.get("text", "")) for b in system if isinstance(b, dict))
    messages = body.get("messages")
    for message in messages if isinstance(messages, list) else []:
        if not isinstance(message, dict) or message.get("role") == "assistant":
            continue
        content = message.get("content")
        if isinstance(content, str):
            yield content
        elif isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "text":
                    yield str(block.get("text", ""))


def directed_good(body: dict[str, Any]) -> float:
    """The `good` of the first directive in the request (system prompt, hook output), else 0.5."""
    for text in _texts(body):
        match = DIRECTIVE.search(text)
        if match:
            return min(1.0, float(match[1]))
    return DEFAULT_GOOD


def draws_good(cell_id: str, good: float) -> bool:
    """The cell's coin: a uniform number from the hash of its id, below `good`."""
    u = int(hashlib.sha256(f"ponybench-coin\0{cell_id}".encode()).hexdigest()[:13], 16) / 16**13
    return u < good


def _offered(body: dict[str, Any]) -> set[Any]:
    tools = body.get("tools")
    return {t.get("name") for t in tools if isinstance(t, dict)} if isinstance(tools, list) else set()


def offered_plugin_skills(body: dict[str, Any]) -> list[str]:
    """Plugin skills (`plugin:skill`) the request lists for the skill tool, if it has that tool."""
    names = _offered(body)
    if dialect_of(names).skill not in names:
        return []
    found: list[str] = []
    for text in _texts(body):
        if _SKILL_LIST in text:
            listing = text.split(_SKILL_LIST, 1)[1]
            found += [m for m in _SKILL_LINE.findall(listing) if ":" in m and m not in found]
    return found


def skill_already_called(body: dict[str, Any]) -> bool:
    skill = dialect_of(_offered(body)).skill
    messages = body.get("messages")
    for message in messages if isinstance(messages, list) else []:
        if isinstance(message, dict) and message.get("role") == "assistant":
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("name") == skill:
                    return True
    return False


def skill_call(body: dict[str, Any]) -> dict[str, Any] | None:
    """The skill tool_use block to send first, or None (no plugin skill offered, or done)."""
    offered = offered_plugin_skills(body)
    if not offered or skill_already_called(body):
        return None
    say = dialect_of(_offered(body))
    return {"type": "tool_use", "id": "", "name": say.skill, "input": {say.skill_name: offered[0]}}


def describe(body: dict[str, Any], cell_id: str) -> str:
    good = directed_good(body)
    return json.dumps({"good": good, "draw": "good" if draws_good(cell_id, good) else "bad"})
