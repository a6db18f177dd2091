"""Reading what other processes wrote: JSON lines and the last line of a log.

Such files may be torn by a kill mid-write, hold bytes that are not UTF-8, or be huge; a
reader here never raises on their content.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


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
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            out.bad += 1
            continue
        if isinstance(obj, dict):
            out.objects.append(obj)
        else:
            out.bad += 1
    return out


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
