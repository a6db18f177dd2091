import importlib
import io
import posixpath
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


def test_files_with_subfolders(tmp_path):
    tar = make_tar(tmp_path / "t.tar.gz", [("css", "dir", ""), ("css/site.css", "file", "body{}"),
                                         ("index.html", "file", "<h1>hi</h1>"), ("img/a/b.svg", "file", "<svg/>")])
    dest = tmp_path / "themes" / "mine"
    got = load().extract_theme(str(tar), str(dest))
    assert list(got) == ["css/site.css", "img/a/b.svg", "index.html"], f"got {got!r}"
    assert (dest / "css" / "site.css").read_text() == "body{}"
    assert (dest / "img" / "a" / "b.svg").read_text() == "<svg/>"


def test_links_are_skipped(tmp_path):
    tar = make_tar(tmp_path / "t.tar.gz", [("a.css", "file", "x"), ("link.css", "symlink", "a.css"),
                                         ("hard.css", "hardlink", "a.css")])
    dest = tmp_path / "out"
    got = load().extract_theme(str(tar), str(dest))
    assert list(got) == ["a.css"], f"only the regular file should be extracted, got {got!r}"
    assert sorted(p.name for p in dest.iterdir()) == ["a.css"], "links should not be created"


def test_existing_and_relative_destinations(tmp_path, monkeypatch):
    """dest_dir may exist already, may be relative to the working directory, and may hold
    files of an earlier theme in the same folders."""
    tar = make_tar(tmp_path / "t.tar.gz", [("css/site.css", "file", "body{}"), ("css/print.css", "file", "p{}")])
    dest = tmp_path / "existing"
    (dest / "css").mkdir(parents=True)
    got = load().extract_theme(str(tar), str(dest))
    assert list(got) == ["css/print.css", "css/site.css"], f"extracting into an existing folder gave {got!r}"
    monkeypatch.chdir(tmp_path)
    got = load().extract_theme(str(tar), "relative/out")
    assert list(got) == ["css/print.css", "css/site.css"], f"extracting into a relative dest_dir gave {got!r}"
    assert (tmp_path / "relative" / "out" / "css" / "site.css").read_text() == "body{}"


def test_odd_names_are_extracted(tmp_path):
    """Names as users' tools write them: spaces, accents, a tab, and a byte that is not UTF-8
    (tarfile reads it as a surrogate, which the file system writes back as the same byte)."""
    names = ["fonts/Noto Sans.woff2", "img/café.png", "tab\there.css", "raw \udcff.css"]
    tar = make_tar(tmp_path / "t.tar.gz", [(n, "file", "x") for n in names])
    dest = tmp_path / "out"
    got = load().extract_theme(str(tar), str(dest))
    assert list(got) == sorted(names), f"every regular file should be extracted and listed by its name, got {got!r}"
    for name in names:
        assert (dest / name).read_text() == "x", f"{name!r} was not written under dest_dir"


def test_names_made_from_the_current_folder(tmp_path):
    """`tar -czf theme.tar.gz .` names its members ./css/site.css: they are extracted into
    dest_dir like any other (whether a returned path keeps the ./ is left open)."""
    tar = make_tar(tmp_path / "t.tar.gz", [(".", "dir", ""), ("./css", "dir", ""), ("./css/site.css", "file", "body{}"),
                                         ("./index.html", "file", "<h1>hi</h1>")])
    dest = tmp_path / "out"
    got = load().extract_theme(str(tar), str(dest))
    assert sorted(posixpath.normpath(p) for p in got) == ["css/site.css", "index.html"], f"got {got!r}"
    assert (dest / "css" / "site.css").read_text() == "body{}"
    assert (dest / "index.html").read_text() == "<h1>hi</h1>"
