import itertools
import os
import tempfile

_counter = itertools.count(1)


def save_report(text):
    path = os.path.join(tempfile.gettempdir(), f"report-{os.getpid()}-{next(_counter)}.txt")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
