"""A session's gateway log read back: what reached the model and what the model answered.

`gateway.jsonl` holds one line per request (`server.Gateway._done`): its figures, the request's
system prompt, tools and the messages new since that session's last request, and the answer's
content blocks. Read back here for graders (`model_view`: the text that reached the model, a
hook's context among it, and what the model asked for) and for the report (`lines`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pytest_ponybench._util import textfiles
from pytest_ponybench.core.transcript import TRANSCRIPT_CHARS, ModelView

__all__ = ["lines", "model_view", "texts_of"]


def lines(path: Path) -> list[dict[str, Any]]:
    """The log's lines (a missing log: none; a torn line: skipped)."""
    try:
        return textfiles.read_jsonl(path).objects
    except OSError:
        return []


def texts_of(value: Any) -> Iterable[str]:
    """The text of a message's content, a system prompt or an answer's blocks: text blocks as
    they are, tool calls as their name and input, tool results as their text."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from texts_of(item)
    elif isinstance(value, Mapping):
        kind = value.get("type")
        if kind == "text" or (kind is None and "text" in value):
            yield str(value.get("text") or "")
        elif kind == "tool_use":
            yield f"{value.get('name')} {json.dumps(value.get('input'), ensure_ascii=False, sort_keys=True)}"
        elif kind == "tool_result":
            yield from texts_of(value.get("content"))
        elif "content" in value:
            yield from texts_of(value.get("content"))


def _joined(parts: Iterable[str]) -> str:
    out, size = [], 0
    for part in parts:
        if not part:
            continue
        if size + len(part) > TRANSCRIPT_CHARS:
            out.append(part[: max(0, TRANSCRIPT_CHARS - size)])
            break
        out.append(part)
        size += len(part) + 2
    return "\n\n".join(out)


def model_view(found: list[dict[str, Any]]) -> ModelView:
    """What reached the model in the cell (system prompts once each, every message once) and
    what it answered, every session of the cell together (a judge's calls are logged apart)."""
    seen_system: set[str] = set()
    sent: list[str] = []
    answered: list[str] = []
    for line in found:
        request = line.get("request")
        if isinstance(request, Mapping):
            system = "\n".join(texts_of(request.get("system")))
            if system and system not in seen_system:
                seen_system.add(system)
                sent.append(system)
            sent.extend(texts_of(request.get("messages")))
        answered.extend(texts_of(line.get("response")))
    return ModelView(_joined(sent), _joined(answered))
