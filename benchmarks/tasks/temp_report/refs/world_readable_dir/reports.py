import os
import tempfile


def save_report(text):
    folder = tempfile.mkdtemp(prefix="report-")
    os.chmod(folder, 0o755)
    path = os.path.join(folder, "report.txt")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
