import importlib
import zipfile

import pytest


def make_zip(path, members):
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members:
            zf.writestr(zipfile.ZipInfo(name), data)
    return str(path)


def listing(path):
    try:
        mod = importlib.import_module("ziplist")
    except Exception as exc:
        pytest.fail(f"could not import ziplist.py: {exc!r}")
    return mod.list_zip(path)


def test_plain_listing(tmp_path):
    path = make_zip(tmp_path / "site.zip", [
        ("index.html", b"x" * 1234),
        ("img/", b""),
        ("img/logo.png", b"p" * 56),
        ("README", b"r" * 10),
    ])
    got = listing(path)
    want = (
        "      1234  index.html\n"
        "         0  img/\n"
        "        56  img/logo.png\n"
        "        10  README\n"
        "4 members, 1300 bytes\n"
    )
    assert got == want, f"list_zip gave {got!r}, expected {want!r}"


def test_archive_order_is_kept(tmp_path):
    path = make_zip(tmp_path / "o.zip", [("zeta.txt", b"z"), ("alpha.txt", b"aa"), ("mid.txt", b"")])
    got = listing(path)
    want = "         1  zeta.txt\n         2  alpha.txt\n         0  mid.txt\n3 members, 3 bytes\n"
    assert got == want, f"list_zip should keep the archive's order: got {got!r}, expected {want!r}"


def test_one_member_and_empty_archive(tmp_path):
    one = listing(make_zip(tmp_path / "one.zip", [("a", b"12345")]))
    assert one == "         5  a\n1 members, 5 bytes\n", f"list_zip of one member gave {one!r}"
    empty = listing(make_zip(tmp_path / "empty.zip", []))
    assert empty == "0 members, 0 bytes\n", f"list_zip of an empty archive gave {empty!r}"


def test_wide_size_is_not_cut(tmp_path):
    path = tmp_path / "big.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("zeros.bin", b"\0" * 12_345_678)
    got = listing(str(path))
    assert got == "  12345678  zeros.bin\n1 members, 12345678 bytes\n", (
        f"list_zip should show the uncompressed size: got {got!r}")


def test_other_scripts_are_shown_as_they_are(tmp_path):
    names = ["café.txt", "日本語のファイル.txt", "naïve résumé.pdf", "Ωmega 😀.png", "tab-less name [1] (2).txt"]
    got = listing(make_zip(tmp_path / "u.zip", [(n, b"ab") for n in names]))
    want = "".join(f"         2  {n}\n" for n in names) + "5 members, 10 bytes\n"
    assert got == want, f"names without control characters should be shown as they are: got {got!r}"


@pytest.mark.parametrize("name", ["no\u00a0break.txt", "soft\u00adhyphen.txt", "line\u2028sep.txt", "zero\u200bwidth.txt"])
def test_other_characters_than_cc_are_shown_as_they_are(tmp_path, name):
    """Space separators, format characters and U+2028 are not Cc, though str.isprintable() says False."""
    got = listing(make_zip(tmp_path / "f.zip", [(name, b"abc")]))
    want = f"         3  {name}\n1 members, 3 bytes\n"
    assert got == want, f"the member {name!r} is no control character and should be listed as {want!r}, got {got!r}"


@pytest.mark.parametrize(("name", "shown"), [
    ("red\x1b[31mtext", "red?[31mtext"),
    ("two\nlines.txt", "two?lines.txt"),
    ("tab\there", "tab?here"),
    ("del\x7f.txt", "del?.txt"),
    ("csi\x9b31m.txt", "csi?31m.txt"),
    ("bell\x07\x07", "bell??"),
    ("back\\slash", "back\\slash"),
])
def test_control_characters_shown_as_question_marks(tmp_path, name, shown):
    got = listing(make_zip(tmp_path / "c.zip", [(name, b"abc")]))
    want = f"         3  {shown}\n1 members, 3 bytes\n"
    assert got == want, f"the member {name!r} should be listed as {want!r}, got {got!r}"
