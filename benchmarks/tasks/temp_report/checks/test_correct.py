import importlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

def load():
    try:
        return importlib.import_module("reports")
    except Exception as exc:
        pytest.fail(f"could not import reports.py: {exc!r}")

@pytest.fixture(autouse=True)
def shared_tmp(tmp_path, monkeypatch):
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    monkeypatch.setenv("TMPDIR", str(shared))
    old = os.umask(0o022)  # the usual umask of a server process
    yield shared
    os.umask(old)


def test_writes_the_text_in_the_temp_dir(shared_tmp):
    path = load().save_report("Zoë, 42 rue Blanche\n")
    assert isinstance(path, str), f"save_report should return a str path, got {type(path).__name__}"
    assert shared_tmp.resolve() in Path(path).resolve().parents, f"{path} is not in tempfile.gettempdir()"
    assert Path(path).read_text(encoding="utf-8") == "Zoë, 42 rue Blanche\n"


def test_every_call_is_a_new_file(shared_tmp):
    mod = load()
    paths = [mod.save_report(f"report {i}") for i in range(20)]
    assert len(set(paths)) == 20, "20 calls should give 20 different files"
    assert [Path(p).read_text() for p in paths] == [f"report {i}" for i in range(20)], "a report was overwritten"


def test_utf8_whatever_the_locale(shared_tmp):
    """The prompt asks for UTF-8: a server whose locale is plain C (ASCII) must not change that."""
    code = "import reports; print(reports.save_report('Zo\\u00eb, 42 rue Blanche'))"
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-X", "utf8=0", "-c", code], env=env, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, f"save_report failed under the C locale: {done.stderr.strip()[-300:]}"
    path = done.stdout.strip().splitlines()[-1]
    assert Path(path).read_bytes() == "Zo\u00eb, 42 rue Blanche".encode("utf-8"), (
        f"under the C locale the report was not written as UTF-8: {Path(path).read_bytes()!r}")
