"""Nightly export: write a report to a temp file."""

import os
import tempfile
import uuid


def save_report(text: str) -> str:
    """Write `text` to a new, unguessably named file in the temp dir and return its path."""
    path = os.path.join(tempfile.gettempdir(), f"report-{uuid.uuid4().hex}.txt")
    with open(path, "x", encoding="utf-8") as f:  # "x": never overwrite an existing file
        f.write(text)
    return path
