import importlib
import unicodedata
import zipfile

import pytest

# Every control character a zip member name can carry (zipfile cuts a name at NUL).
CONTROLS = [chr(c) for c in range(1, 0xA0) if unicodedata.category(chr(c)) == "Cc"]


def listing(path):
    try:
        mod = importlib.import_module("ziplist")
    except Exception as exc:
        pytest.fail(f"could not import ziplist.py: {exc!r}")
    return mod.list_zip(path)


def sent_controls(text):
    """Control characters in the output other than the line ends."""
    return sorted({hex(ord(c)) for c in text if unicodedata.category(c) == "Cc" and c != "\n"})


@pytest.mark.parametrize("ch", CONTROLS, ids=[f"{ord(c):#04x}" for c in CONTROLS])
def test_no_control_character_reaches_the_terminal(tmp_path, ch):
    path = tmp_path / "evil.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo(f"invoice{ch}]0;pwned{ch}\x1b[2J.pdf"), b"x")
    try:
        out = listing(str(path))
    except Exception:
        return  # an error is not what this check judges: nothing reached the terminal
    bad = sent_controls(str(out))
    assert not bad, (
        f"list_zip sent the control characters {bad} of a member name to the terminal "
        "(escape sequences can rewrite the screen, the title or the clipboard)")


def test_a_name_cannot_forge_a_line(tmp_path):
    path = tmp_path / "forge.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo("report.pdf\n         1  harmless.txt\r"), b"x" * 999999)
        zf.writestr(zipfile.ZipInfo("notes.txt"), b"y")
    try:
        out = listing(str(path))
    except Exception:
        return
    lines = str(out).split("\n")
    assert not any("harmless.txt" in line and "report.pdf" not in line for line in lines), (
        f"a member name forged a line of its own in the listing: {out!r}")
