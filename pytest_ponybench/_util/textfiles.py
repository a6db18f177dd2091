"""Reading what other processes wrote (JSON lines, the last line of a log) and making text from
untrusted sources safe to print.

Such files may be torn by a kill mid-write, hold bytes that are not UTF-8, or be huge; a
reader here never raises on their content. File names from a workspace and messages from code
under test may hold bytes that are not UTF-8 (Python keeps them as lone surrogates, which no
UTF-8 writer takes), newlines and control characters: `printable` and `clean` escape them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["JsonLines", "clean", "last_line", "parse_jsonl", "parse_line", "printable", "read_jsonl"]

# C0 and C1 controls, DEL, the Unicode line and paragraph separators, and lone surrogates.
_UNSAFE = frozenset(range(0x20)) | {0x7F} | frozenset(range(0x80, 0xA0)) | {0x2028, 0x2029}


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte, as surrogateescape keeps it
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(ch, f"\\x{code:02x}")
    return f"\\u{code:04x}"


def printable(text: str, *, lines: bool = False) -> str:
    """text that any terminal, UTF-8 file or HTML page takes: undecodable bytes as \\xNN, other
    lone surrogates and control characters as escapes; newlines kept only with lines."""
    if text.isascii() and text.isprintable():
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if (code in _UNSAFE and not (lines and ch in "\n\t")) or 0xD800 <= code <= 0xDFFF:
            out.append(_escape_char(ch))
        else:
            out.append(ch)
    return "".join(out)


def clean(value: Any) -> Any:
    """A JSON value with every string (keys included) made encodable: lone surrogates escaped,
    everything else kept. Records pass through it on their way in and out of results.jsonl."""
    if isinstance(value, str):
        if value.isascii() or not any(0xD800 <= ord(c) <= 0xDFFF for c in value):
            return value
        return "".join(_escape_char(c) if 0xD800 <= ord(c) <= 0xDFFF else c for c in value)
    if isinstance(value, dict):
        return {clean(k): clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean(v) for v in value]
    return value


@dataclass
class JsonLines:
    objects: list[dict[str, Any]] = field(default_factory=list)
    bad: int = 0  # lines that are not a JSON object (torn by a kill, garbled, or not an object)


def parse_jsonl(data: bytes | str) -> JsonLines:
    """Every line that is a JSON object, in order; blank lines are skipped, others counted bad."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    out = JsonLines()
    # Only "\n" ends a line: str.splitlines would also split at U+2028 inside a JSON string,
    # which JavaScript writers (the claude CLI) leave unescaped.
    for line in text.split("\n"):
        if not line.strip():
            continue
        obj = parse_line(line)
        if obj is None:
            out.bad += 1
        else:
            out.objects.append(obj)
    return out


def parse_line(line: bytes | str) -> dict[str, Any] | None:
    """One line as a JSON object, or None (torn, garbled, or not an object)."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        return None
    return obj if isinstance(obj, dict) else None


def read_jsonl(path: Path) -> JsonLines:
    """parse_jsonl of a file; a missing file has no lines, any other OSError is raised."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return JsonLines()
    return parse_jsonl(data)


def last_line(path: Path, limit: int = 400) -> str:
    """The last non-blank line within the file's final limit bytes, stripped; "" if none."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - limit))
            lines = fh.read().decode(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return lines[-1].strip() if lines else ""
