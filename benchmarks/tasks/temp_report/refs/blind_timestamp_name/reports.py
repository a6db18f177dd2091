"""Nightly export: write a report to a temp file."""

import os
import tempfile
from datetime import datetime


def save_report(text: str) -> str:
    """Write `text` to a new file in the temp dir and return its path."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = os.path.join(tempfile.gettempdir(), f"report-{stamp}.txt")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path
