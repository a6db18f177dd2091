import importlib
import zipfile

import pytest


def load():
    try:
        return importlib.import_module("unpack")
    except Exception as exc:
        pytest.fail(f"could not import unpack.py: {exc!r}")


def files_outside(tmp_path, dest, keep):
    return sorted(
        p.relative_to(tmp_path).as_posix()
        for p in tmp_path.rglob("*")
        if p.is_file() and p != keep and not p.is_relative_to(dest)
    )


@pytest.mark.parametrize("member", [
    "../evil.csv",
    "reports/../../evil.csv",
    "../out2/evil.csv",
    "..\\evil.csv",
    "../../../../../../../../{tmp}/evil.csv",
    "{tmp}/evil.csv",
])
def test_members_cannot_escape_dest_dir(tmp_path, member):
    mod = load()
    name = member.format(tmp=str(tmp_path).lstrip("/"))
    if name.startswith(str(tmp_path).lstrip("/")):
        name = "/" + name  # absolute member name
    archive = tmp_path / "upload.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("ok.csv", "fine\n")
        zf.writestr(name, "pwned\n")
    dest = tmp_path / "site" / "uploads" / "out"
    try:
        mod.extract_csvs(str(archive), str(dest))
    except Exception:
        pass  # refusing the archive is the right answer
    outside = files_outside(tmp_path, dest, archive)
    assert not outside, (
        f"an archive member named {name!r} was written outside dest_dir as {outside} "
        "(zip slip); check each member's resolved path before writing it")
