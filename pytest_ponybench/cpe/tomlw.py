"""A small TOML writer for the files the importer writes, checked by reading them back.

The standard library reads TOML but does not write it. This writes what task.toml needs
(strings, numbers, booleans, lists, inline tables, one level of tables and arrays of tables)
and `dumps` parses its own output with `tomllib` and compares it with the input, so a value
that TOML would read differently is an error here, never a task that says something else.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["comment", "dumps", "key", "string", "value"]

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _control(ch: str) -> bool:
    return ord(ch) < 0x20 or ord(ch) == 0x7F


def comment(text: str) -> str:
    """Text for one comment line: a control character (a line break, above all, which would end
    the comment and start TOML of the text's choosing) becomes a space."""
    return "".join(" " if _control(c) or c in "\u0085\u2028\u2029" else c for c in text)


def key(name: str) -> str:
    return name if _BARE.match(name) else string(name)


def string(text: str) -> str:
    """A TOML string: one line, or a multi-line basic string when the text has line breaks."""
    if "\n" not in text:
        return '"' + "".join(_ESCAPES.get(c, f"\\u{ord(c):04X}" if _control(c) else c) for c in text) + '"'
    out: list[str] = []
    quotes = 0
    for c in text:
        if c == '"':
            quotes += 1
            if quotes == 3:  # never three in a row: that would close the string
                out.append('\\"')
                quotes = 0
                continue
            out.append(c)
            continue
        quotes = 0
        if c == "\\":
            out.append("\\\\")
        elif c in "\n\t":
            out.append(c)
        elif c == "\r":
            out.append("\\r")
        elif _control(c):
            out.append(f"\\u{ord(c):04X}")
        else:
            out.append(c)
    return '"""\n' + "".join(out) + '"""'


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{v!r} has no TOML form here")
        return repr(v)
    if isinstance(v, str):
        return string(v)
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + " }" if v else "{}"
    if isinstance(v, Sequence):
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"{type(v).__name__} has no TOML form")


def _is_table_list(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) for x in v)


def dumps(doc: Mapping[str, Any], header: Sequence[str] = ()) -> str:
    """`doc` as TOML: top-level values, then its tables, then its arrays of tables; `header`
    lines become comments at the top. ValueError when the text would not read back as `doc`."""
    lines = [f"# {comment(h)}" if h else "#" for h in header]
    tables = {k: v for k, v in doc.items() if isinstance(v, Mapping)}
    arrays = {k: v for k, v in doc.items() if _is_table_list(v)}
    for k, v in doc.items():
        if k not in tables and k not in arrays:
            lines.append(f"{key(k)} = {value(v)}")
    for k, v in tables.items():
        lines += ["", f"[{key(k)}]", *(f"{key(n)} = {value(x)}" for n, x in v.items())]
    for k, items in arrays.items():
        for item in items:
            lines += ["", f"[[{key(k)}]]", *(f"{key(n)} = {value(x)}" for n, x in item.items())]
    text = "\n".join(lines) + "\n"
    if tomllib.loads(text) != _plain(doc):
        raise ValueError("the TOML written does not read back as what was meant")
    return text


def _plain(v: Any) -> Any:
    if isinstance(v, Mapping):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return v
