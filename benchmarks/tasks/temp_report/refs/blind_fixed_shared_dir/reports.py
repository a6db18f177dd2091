"""Nightly export: write a report to a temp file."""

import os
import tempfile

REPORT_DIR = os.path.join(tempfile.gettempdir(), "nightly-reports")


def save_report(text: str) -> str:
    """Write `text` to a new file in our report folder in the temp dir and return its path."""
    os.makedirs(REPORT_DIR, exist_ok=True)
    fd, path = tempfile.mkstemp(prefix="report-", suffix=".txt", dir=REPORT_DIR)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path
