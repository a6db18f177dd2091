"""Nightly export: write a report to a temp file."""

import os
import tempfile


def save_report(text: str) -> str:
    """Write `text` to a new file in the temp dir and return its path."""
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", prefix="report-", suffix=".txt", delete=False
    ) as f:
        f.write(text)
        path = f.name
    # The upload job runs under another account and must be able to read the export.
    os.chmod(path, 0o644)
    return path
