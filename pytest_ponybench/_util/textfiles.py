"""Reading what other processes wrote (JSON lines, a log quoted by its ends) and making text
from untrusted sources safe to print.

Such files may be torn by a kill mid-write, hold bytes that are not UTF-8, or be huge; a
reader here never raises on their content. File names from a workspace and messages from code
under test may hold bytes that are not UTF-8 (Python keeps them as lone surrogates, which no
UTF-8 writer takes), newlines and control characters: `printable` and `clean` escape them.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "QUOTE_CHARS",
    "JsonLines",
    "clean",
    "parse_jsonl",
    "parse_line",
    "printable",
    "quote",
    "quote_file",
    "read_jsonl",
]

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


QUOTE_CHARS = 300  # a quote of another process's output, in a message or a record
_HEAD_BYTES = 4_096  # of a file quoted: its beginning and its end, never the middle of a huge one
_ERROR_LINE = re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b|^(?:error|fatal|panic)\b", re.IGNORECASE)
_CUT = " … "  # where lines were left out
_NEXT = " | "  # between lines that follow each other


def _cut(line: str, limit: int) -> str:
    """line cut between words (within its last third) to at most limit characters, with "…"."""
    if len(line) <= limit:
        return line
    room = max(1, limit - 1)
    space = line.rfind(" ", 0, room + 1)
    return (line[:space] if space > room * 2 // 3 else line[:room]).rstrip() + "…"


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """Another process's output as one line of a message: whole when it fits; else its first
    line, the first line between that names an error, and its last line, each cut between words
    to a fair share of limit, with " … " where lines were left out. A crash says where it began
    on its first line and what failed on its last (Python's `ValueError: ...`) or on a line of
    its own (node's `Error: Cannot find module ...`), so a quote never loses either to a cut."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return ""
    whole = _NEXT.join(lines)
    if len(whole) <= limit:
        return whole
    if len(lines) == 1:
        return _cut(lines[0], limit)
    middle = next((i for i in range(1, len(lines) - 1) if _ERROR_LINE.search(lines[i])), None)
    kept = [0, *([middle] if middle is not None else []), len(lines) - 1]
    joins = [_NEXT if b == a + 1 else _CUT for a, b in zip(kept, kept[1:], strict=False)]
    room = max(len(kept), limit - sum(map(len, joins)))
    # Shares of the room: a line shorter than its share is kept whole and leaves the rest to the
    # others; what failed (the error line, the last) weighs twice where a crash began.
    weight = {i: 1 if i == 0 else 2 for i in kept}
    shares: dict[int, int] = {}
    for i in sorted(kept, key=lambda i: len(lines[i]) / weight[i]):
        left = sum(weight[j] for j in kept if j not in shares)
        shares[i] = min(len(lines[i]), (room - sum(shares.values())) * weight[i] // left)
    out = _cut(lines[kept[0]], shares[kept[0]])
    for join, i in zip(joins, kept[1:], strict=True):
        out += join + _cut(lines[i], shares[i])
    return out


def quote_file(path: Path, limit: int = QUOTE_CHARS) -> str:
    """`quote` of a file another process wrote (a stderr log): only its first and last few KiB
    are read, so a huge log costs nothing; "" when it is missing or holds nothing."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_HEAD_BYTES)
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            if size > 2 * _HEAD_BYTES:
                fh.seek(size - _HEAD_BYTES)
                tail = fh.read()
                # The lines cut at the two edges are left out; a line between marks the gap.
                head = head.rpartition(b"\n")[0] or head
                tail = tail.partition(b"\n")[2] or tail
                data = head + b"\n...\n" + tail
            else:
                fh.seek(len(head))
                data = head + fh.read()
    except OSError:
        return ""
    return quote(data.decode("utf-8", "replace"), limit)
