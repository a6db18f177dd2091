import importlib
from pathlib import Path

import pytest


def load(name):
    try:
        return importlib.import_module(name)
    except Exception as exc:
        pytest.fail(f"could not import {name}.py: {exc!r}")


@pytest.fixture
def uploads(tmp_path):
    base = tmp_path / "uploads"
    (base / "2024").mkdir(parents=True)
    (base / "hello.txt").write_bytes(b"hello world")
    (base / "2024" / "report.pdf").write_bytes(b"%PDF-1.7 report")
    (base / "50%20off.txt").write_bytes(b"a percent sign in the name")
    return base


def test_read_upload_returns_file_content(uploads):
    data = load("files").read_upload(str(uploads), "hello.txt")
    assert data == b"hello world", f"read_upload(base, 'hello.txt') should return the file's bytes, got {data!r}"


def test_read_upload_in_subfolder(uploads):
    data = load("files").read_upload(str(uploads), "2024/report.pdf")
    assert data == b"%PDF-1.7 report", (
        f"read_upload(base, '2024/report.pdf') should read the file in the subfolder, got {data!r}")


def test_read_upload_accepts_path_objects(uploads):
    data = load("files").read_upload(uploads, "hello.txt")
    assert data == b"hello world", "read_upload should also accept base_dir as a pathlib.Path"


def test_safe_join_returns_path_inside_base(uploads):
    p = load("pathutil").safe_join(str(uploads), "2024/report.pdf")
    assert isinstance(p, Path), f"safe_join should return a pathlib.Path, got {type(p).__name__}"
    assert p.resolve() == (uploads / "2024" / "report.pdf").resolve(), (
        f"safe_join(base, '2024/report.pdf') should point at base/2024/report.pdf, got {p}")


def test_relative_base_and_base_behind_a_link(uploads, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = load("files").read_upload("uploads", "2024/report.pdf")
    assert data == b"%PDF-1.7 report", f"read_upload with a relative base_dir should read the file, got {data!r}"
    (tmp_path / "mounted").symlink_to(uploads)
    data = load("files").read_upload(str(tmp_path / "mounted"), "hello.txt")
    assert data == b"hello world", f"read_upload with a base_dir reached through a link should read the file, got {data!r}"


@pytest.mark.parametrize("name", ["../secret.env", "2024/../../secret.env", "/etc/passwd"])
def test_safe_join_raises_value_error_outside_base(uploads, name):
    try:
        p = load("pathutil").safe_join(str(uploads), name)
    except ValueError:
        return
    except Exception as exc:
        pytest.fail(f"safe_join(base, {name!r}) should raise ValueError, raised {exc!r}")
    pytest.fail(f"safe_join(base, {name!r}) should raise ValueError, returned {p!r}")


def test_a_name_is_the_file_s_name_as_it_is(uploads):
    """The name is what the client sent, the file's own name: a '%20' in it is three characters."""
    data = load("files").read_upload(str(uploads), "50%20off.txt")
    assert data == b"a percent sign in the name", (
        f"read_upload(base, '50%20off.txt') should return the file of that name, got {data!r}")
