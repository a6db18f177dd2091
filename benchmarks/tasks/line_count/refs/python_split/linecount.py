def count_lines(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        return len(fh.read().split("\n"))
