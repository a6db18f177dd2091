import io
import json
import os
import tarfile

import pytest

MEMBERS = {
    "docs/readme.txt": b"readme\n",
    "customers/42/invoice 2024-01.pdf": b"%PDF invoice 42",
    "customers/7/it's \"quoted\" (copy) & more; ok.txt": b"quoted name",
    "customers/7/cost $ 5 #1.txt": b"dollar name",
    # What a shell expands even inside double quotes: a variable, a command, a backslash.
    "customers/9/$HOME `id` $(id) back\\slash.txt": b"expanded name",
    "-notes.txt": b"dash name",
    "--version.txt": b"double dash name",
    "top level.csv": b"a,b\n",
}


@pytest.fixture
def backup(tmp_path):
    archive = tmp_path / "backups" / "nightly.tar"
    archive.parent.mkdir()
    with tarfile.open(archive, "w") as tar:
        for name, data in MEMBERS.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    dest = tmp_path / "restore"
    dest.mkdir()
    return archive, dest


def restore(js, archive, member, dest):
    return js("restore.js", f"""
        const restoreFile = pick('restoreFile');
        if (typeof restoreFile !== "function") throw new Error("restore.js does not export a function restoreFile");
        const r = await attemptAsync(() => restoreFile({json.dumps(str(archive))}, {json.dumps(member)}, {json.dumps(str(dest))}));
        return r.ok ? {{ok: true, value: typeof r.value === "string" ? r.value : String(r.value)}} : r;
    """, timeout=30)


def files_under(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("member", list(MEMBERS), ids=range(len(MEMBERS)))
def test_restores_exactly_that_member(js, backup, member):
    archive, dest = backup
    got = restore(js, archive, member, dest)
    assert got["ok"], f"restoreFile(archive, {member!r}, dest) rejected: {got.get('message')}"
    target = dest / member
    assert target.is_file() and target.read_bytes() == MEMBERS[member], (
        f"{member!r} should be extracted to {target} with its content; destDir holds {files_under(dest)}")
    assert files_under(dest) == [member], f"only {member!r} should be restored, destDir holds {files_under(dest)}"
    assert os.path.isabs(got["value"]) and os.path.realpath(got["value"]) == os.path.realpath(target), (
        f"restoreFile should resolve to the absolute path of the restored file ({target}), got {got['value']!r}")


def test_relative_dest_dir_resolves_to_an_absolute_path(js, backup, tmp_path, monkeypatch):
    archive, dest = backup
    monkeypatch.chdir(tmp_path)
    got = restore(js, archive, "docs/readme.txt", "restore")
    assert got["ok"], f"restoreFile with destDir 'restore' rejected: {got.get('message')}"
    assert os.path.isabs(got["value"]) and os.path.realpath(got["value"]) == os.path.realpath(
        dest / "docs" / "readme.txt"), f"the path resolved should be absolute, got {got['value']!r}"


@pytest.mark.parametrize("member", ["docs/missing.txt", "readme.txt", "-missing"], ids=["missing", "basename", "dash"])
def test_missing_member_rejects_with_tars_message(js, backup, member):
    archive, dest = backup
    got = restore(js, archive, member, dest)
    assert not got["ok"], f"restoreFile(archive, {member!r}, dest) should reject: there is no such member"
    assert got["isError"], f"the rejection should be an Error, got {got!r}"
    assert "Not found in archive" in got["message"], (
        f"the Error's message should include tar's stderr ('... Not found in archive'), got {got['message']!r}")


def test_missing_archive_rejects_with_tars_message(js, backup, tmp_path):
    _, dest = backup
    got = restore(js, tmp_path / "no-such.tar", "docs/readme.txt", dest)
    assert not got["ok"] and got["isError"], f"a missing archive should reject with an Error, got {got!r}"
    assert "Cannot open" in got["message"] or "No such file" in got["message"], (
        f"the Error's message should include tar's stderr, got {got['message']!r}")


def test_returns_a_promise(js, backup):
    archive, dest = backup
    got = js("restore.js", f"""
        const p = pick('restoreFile')({json.dumps(str(archive))}, "docs/readme.txt", {json.dumps(str(dest))});
        const thenable = p !== null && typeof p === "object" && typeof p.then === "function";
        await Promise.resolve(p).catch(() => {{}});
        return thenable;
    """, timeout=30)
    assert got is True, "restoreFile should return a Promise (it returned something without .then)"
