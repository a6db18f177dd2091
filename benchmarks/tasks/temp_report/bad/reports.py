import os
import tempfile
import time


def save_report(text: str) -> str:
    path = os.path.join(tempfile.gettempdir(), f"report-{os.getpid()}-{time.time_ns()}.txt")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
