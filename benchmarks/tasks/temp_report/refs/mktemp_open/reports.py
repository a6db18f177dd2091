import tempfile


def save_report(text):
    path = tempfile.mktemp(prefix="report-", suffix=".txt")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
