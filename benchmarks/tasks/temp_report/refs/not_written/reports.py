import os
import tempfile


def save_report(text):
    fd, path = tempfile.mkstemp(suffix=".txt")
    os.close(fd)
    return path
