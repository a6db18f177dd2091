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


def outcome(files, base, name):
    try:
        return f"returned {files.read_upload(str(base), name)!r}"
    except Exception as exc:
        return f"raised {type(exc).__name__}"


@pytest.mark.parametrize("template", ["../{f}", "sub/../../{f}", "/{srv}/{f}", "shared/{f}", "../uploads-old/{f}"])
def test_a_file_outside_is_not_told_from_a_missing_one(uploads, template):
    """An existence oracle: a name that reaches a file outside the upload directory that exists
    must get the answer a missing one gets (another exception tells which files exist there)."""
    files = load("files")
    there, missing = (
        template.replace("/{srv}", str(uploads.parent)).replace("{f}", f) for f in ("secret.env", "no-such.env")
    )
    got = outcome(files, uploads, there), outcome(files, uploads, missing)
    assert got[0] == got[1], (
        f"read_upload(base, {there!r}) (a file outside that exists) {got[0]}, but {missing!r} (one that does "
        f"not) {got[1]}: the answer tells which files exist outside the upload directory")
