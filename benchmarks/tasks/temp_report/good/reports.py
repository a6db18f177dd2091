import os
import tempfile


def save_report(text: str) -> str:
    fd, path = tempfile.mkstemp(prefix="report-", suffix=".txt")  # O_EXCL, mode 0600
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
