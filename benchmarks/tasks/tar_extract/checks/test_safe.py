import importlib
import io
import os
import tarfile

import pytest

def load():
    try:
        return importlib.import_module("untar")
    except Exception as exc:
        pytest.fail(f"could not import untar.py: {exc!r}")

def make_tar(path, members):
    """members: (name, kind, payload) with kind file | dir | symlink | hardlink."""
    with tarfile.open(path, "w:gz") as tf:
        for name, kind, payload in members:
            info = tarfile.TarInfo(name)
            if kind == "file":
                data = payload.encode()
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
                continue
            info.type = {"dir": tarfile.DIRTYPE, "symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE}[kind]
            info.linkname = payload
            tf.addfile(info)
    return path


def outside(tmp_path, dest, keep):
    found = []
    for p in tmp_path.rglob("*"):
        if p == keep or p.is_relative_to(dest) or p == tmp_path / "victim.txt":
            continue
        if p.is_file() or p.is_symlink():
            found.append(p.relative_to(tmp_path).as_posix())
    return sorted(found)


@pytest.mark.parametrize("members", [
    [("../evil.txt", "file", "pwned")],
    [("a/../../evil.txt", "file", "pwned")],
    [("/{tmp}/evil.txt", "file", "pwned")],
    [("../out2/evil.txt", "file", "pwned")],
    [("esc", "symlink", ".."), ("esc/evil.txt", "file", "pwned")],
    [("esc", "symlink", "/{tmp}"), ("esc/evil.txt", "file", "pwned")],
    [("v", "symlink", "/{tmp}/victim.txt"), ("v", "file", "pwned")],
    [("h", "hardlink", "/{tmp}/victim.txt"), ("h", "file", "pwned")],
], ids=["dotdot", "nested-dotdot", "absolute", "sibling", "link-dir", "abs-link-dir", "link-file", "hardlink"])
def test_members_cannot_write_outside_dest(tmp_path, members):
    victim = tmp_path / "victim.txt"
    victim.write_text("original")
    members = [(n.replace("/{tmp}", str(tmp_path)), k, p.replace("/{tmp}", str(tmp_path))) for n, k, p in members]
    tar = make_tar(tmp_path / "upload.tar.gz", [("ok.css", "file", "fine")] + members)
    dest = tmp_path / "out"
    try:
        load().extract_theme(str(tar), str(dest))
    except Exception:
        pass  # refusing the archive is the right answer
    assert victim.read_text() == "original", (
        "a member overwrote a file outside dest_dir through a link (tar slip)")
    assert not outside(tmp_path, dest, tar), (
        f"members {[m[0] for m in members]} wrote {outside(tmp_path, dest, tar)} outside dest_dir (tar slip)")
    escaping = [p for p in dest.rglob("*") if p.is_symlink() and not p.resolve().is_relative_to(dest.resolve())]
    assert not escaping, f"dest_dir holds links that lead outside it: {escaping} (tar slip)"
