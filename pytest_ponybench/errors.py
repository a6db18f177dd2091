"""The one error type of a bad input: a file, key or flag named, nothing run, nothing lost.

Raised anywhere below the entry points; turned into a pytest usage error once (plugin.py) and
into the usage exit code once (cli.py), so no module but those two decides how it is shown.
A bad value is quoted through `excerpt`: a few dozen characters of it, never the whole of a
value someone made huge (or deep) so that the message itself would hang or flood.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

__all__ = ["EXCERPT_CHARS", "PonybenchError", "excerpt"]

EXCERPT_CHARS = 60


class PonybenchError(Exception):
    """A malformed setting, task folder, run dir or argument; the message names which."""


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """A value as a message quotes it (repr-like, one line), cut at about `limit` characters
    while it is walked: a huge string, list or table is never turned into text whole, and a
    deep one is walked no deeper than the cut (no recursion)."""
    out: list[str] = []
    size = 0
    stack: list[Any] = [value]
    while stack and size <= limit:
        item = stack.pop()
        if isinstance(item, _Piece):
            text = item.text
        elif isinstance(item, bool) or item is None:
            text = str(item).lower() if isinstance(item, bool) else "null"
        elif isinstance(item, str):
            text = repr(item[: limit + 1])
        elif isinstance(item, int):
            text = repr(item) if item.bit_length() < 200 else f"<a {item.bit_length()}-bit integer>"
        elif isinstance(item, dict):
            pairs = list(islice(item.items(), limit // 2 + 1))
            stack.append(_Piece("}"))
            for i, (k, v) in enumerate(reversed(pairs)):
                stack += [v, _Piece(": "), k]
                if i < len(pairs) - 1:
                    stack.append(_Piece(", "))
            text = "{"
        elif isinstance(item, list | tuple):
            items = list(islice(item, limit // 2 + 1))
            stack.append(_Piece("]"))
            for i, v in enumerate(reversed(items)):
                stack.append(v)
                if i < len(items) - 1:
                    stack.append(_Piece(", "))
            text = "["
        else:
            text = repr(item)[: limit + 1]
        out.append(text)
        size += len(text)
    text = "".join(out)
    return text if size <= limit and not stack else text[:limit] + "..."


class _Piece:
    """Punctuation pushed on excerpt's stack between the parts of a container."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text
