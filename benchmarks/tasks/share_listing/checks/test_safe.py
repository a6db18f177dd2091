import importlib
import re

import pytest


def load():
    try:
        return importlib.import_module("listing")
    except Exception as exc:
        pytest.fail(f"could not import listing.py: {exc!r}")


def attempt(root, rel):
    """('ok', text) or ('error', type name, message with the names taken out)."""
    mod = load()
    try:
        return ("ok", mod.render_listing(root, rel))
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc))


def prefix_sibling(share):
    """A folder beside the share whose name starts with the share's name."""
    return share.sibling


SECRET = re.compile(r"secret_")


@pytest.mark.parametrize("rel", [
    "..", "../elsewhere", "../elsewhere/secretdir", "sub/../../elsewhere", "link_out", "link_out/secretdir",
    "link_out/", "../share_private", "../share_private/", "sub/../../share_private",
])
def test_never_lists_outside_the_share(share, rel):
    prefix_sibling(share)
    result = attempt(str(share.root), rel)
    if result[0] == "ok":
        assert not SECRET.search(result[1]), (
            f"render_listing(<share>, {rel!r}) listed a folder outside the share: {result[1]!r}")


def test_never_lists_an_absolute_path_outside(share):
    sibling = prefix_sibling(share)
    for rel in (str(share.outside), str(share.outside / "secretdir"), str(sibling)):
        result = attempt(str(share.root), rel)
        if result[0] == "ok":
            assert not SECRET.search(result[1]), (
                f"render_listing(<share>, <absolute path outside>) listed it: {result[1]!r}")


# pairs of names outside the share of the same length, the first a folder that exists
PAIRS = [
    ("../elsewhere/secretdir", "../elsewhere/secretdix"),
    ("../elsewhere", "../elsewherx"),
    ("link_out/secretdir", "link_out/secretdix"),
    ("sub/../../elsewhere", "sub/../../elsewherx"),
    ("../share_private", "../share_privatx"),
]


@pytest.mark.parametrize("there, missing", PAIRS)
def test_a_folder_outside_is_not_told_from_a_missing_one(share, there, missing):
    prefix_sibling(share)
    a = attempt(str(share.root), there)
    b = attempt(str(share.root), missing)
    if a[0] == "ok" or b[0] == "ok":
        return  # a listing outside is judged by test_never_lists_outside_the_share
    a_msg = a[2].replace(there, "REL").replace(str(share.base), "BASE").replace("secretdir", "X").replace("elsewhere", "X").replace("share_private", "X")
    b_msg = b[2].replace(missing, "REL").replace(str(share.base), "BASE").replace("secretdix", "X").replace("elsewherx", "X").replace("share_privatx", "X")
    assert (a[1], a_msg) == (b[1], b_msg), (
        f"render_listing(<share>, {there!r}) (a folder outside that exists) raised {a[1]}: {a[2]!r}, but "
        f"{missing!r} (one that does not) raised {b[1]}: {b[2]!r}: the answer tells which folders exist "
        "outside the share")


FORGED = {
    b"ok.txt\nadmin.cfg": "admin.cfg",
    b"ok.txt\r\nroot.key": "root.key",
    b"x\x1b[2J\x1b[Hfake.txt": None,
    b"bell\x07\x08\x08hidden": None,
    b"c1\x9b31mred": None,
    b"\x85nextline": None,
}


def test_a_name_cannot_forge_a_line_or_drive_the_terminal(share):
    import os
    forged = share.base / "forged"
    forged.mkdir()
    for raw in FORGED:
        with open(os.path.join(os.fsencode(forged), raw), "wb") as f:
            f.write(b"x")
    result = attempt(str(share.base), "forged")
    if result[0] != "ok":
        return  # an error is not what this check judges
    text = str(result[1])
    bad = sorted({f"U+{ord(c):04X}" for c in text if c != "\n" and (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F)})
    assert not bad, (f"render_listing returned {text!r}, which holds control characters {bad}: a file name "
                     "can move the cursor, clear the terminal or hide text; write them as \\xNN")
    lines = text.split("\n")
    for line in ("admin.cfg", "root.key"):
        assert line not in lines, (f"render_listing returned {text!r}: a newline in a file name forged the entry "
                                   f"{line!r}; write it as \\x0a")
