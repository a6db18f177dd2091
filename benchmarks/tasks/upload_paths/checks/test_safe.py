import importlib
import os

import pytest

SECRET = b"DB_PASSWORD=hunter2"


def load(name):
    try:
        return importlib.import_module(name)
    except Exception as exc:
        pytest.fail(f"could not import {name}.py: {exc!r}")


@pytest.fixture
def uploads(tmp_path):
    srv = tmp_path / "srv"
    base = srv / "uploads"
    (base / "sub").mkdir(parents=True)
    (base / "sub" / "a.txt").write_bytes(b"a")
    (srv / "secret.env").write_bytes(SECRET)
    (srv / "uploads-old").mkdir()
    (srv / "uploads-old" / "secret.env").write_bytes(SECRET)
    os.symlink(srv / "secret.env", base / "sub" / "link.env")
    os.symlink(srv, base / "shared")
    return base


def hostile_names(uploads):
    return [
        "../secret.env",
        "....//secret.env",
        "sub/../../secret.env",
        "..//secret.env",
        "../uploads-old/secret.env",
        str(uploads.parent / "secret.env"),
        "sub/link.env",
        "shared/secret.env",
    ]


def test_read_upload_never_reads_outside_base(uploads):
    files = load("files")
    for name in hostile_names(uploads):
        try:
            data = files.read_upload(str(uploads), name)
        except Exception:
            continue  # refusing is the right answer
        assert data != SECRET, (
            f"read_upload(base, {name!r}) returned a file from outside the upload directory "
            "(path traversal)")


def test_safe_join_never_points_outside_base(uploads):
    pathutil = load("pathutil")
    base = uploads.resolve()
    for name in hostile_names(uploads):
        try:
            p = pathutil.safe_join(str(uploads), name)
        except Exception:
            continue  # refusing is the right answer; the exception type is judged elsewhere
        resolved = (uploads / p).resolve()
        assert resolved.is_relative_to(base), (
            f"safe_join(base, {name!r}) returned {p}, which leads outside the upload directory "
            "(path traversal)")
