import os
import tempfile


def save_report(text):
    folder = tempfile.mkdtemp(prefix="report-")  # mode 0700, a new random name each call
    path = os.path.join(folder, "report.txt")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
