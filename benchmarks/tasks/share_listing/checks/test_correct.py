import importlib

import pytest


def load():
    try:
        return importlib.import_module("listing")
    except Exception as exc:
        pytest.fail(f"could not import listing.py: {exc!r}")


def listing(root, rel):
    mod = load()
    try:
        return mod.render_listing(root, rel)
    except Exception as exc:
        pytest.fail(f"render_listing(<share>, {rel!r}) raised {exc!r}")


def test_root_listing_sorted_by_bytes_and_escaped(share):
    got = listing(str(share.root), "")
    want = share.root_listing()
    assert got == want, f"render_listing(<share>, '') returned\n{got!r}\nexpected\n{want!r}"


def test_root_given_as_a_path(share):
    got = listing(share.root, "")
    assert got == share.root_listing(), f"render_listing(Path(<share>), '') returned {got!r}"


@pytest.mark.parametrize("rel", ["sub", "sub/", "./sub", "sub/."])
def test_a_subfolder(share, rel):
    got = listing(str(share.root), rel)
    want = "empty/\ninner/\nnotes.txt\nup@\n"
    assert got == want, f"render_listing(<share>, {rel!r}) returned {got!r}, expected {want!r}"


def test_an_empty_folder(share):
    got = listing(str(share.root), "sub/empty")
    assert got == "", f"render_listing(<share>, 'sub/empty') returned {got!r}, expected ''"


def test_a_folder_with_an_odd_name(share):
    got = listing(str(share.root), "B dir")
    assert got == "", f"render_listing(<share>, 'B dir') returned {got!r}, expected ''"


def test_a_relative_root(share, monkeypatch):
    monkeypatch.chdir(share.base)
    got = listing("share", "sub")
    want = "empty/\ninner/\nnotes.txt\nup@\n"
    assert got == want, f"render_listing('share', 'sub') returned {got!r}, expected {want!r}"


@pytest.mark.parametrize("rel", ["nothere", "sub/nothere", "a.txt", "sub/notes.txt", "link_file"])
def test_no_such_folder_raises_file_not_found(share, rel):
    mod = load()
    with pytest.raises(FileNotFoundError):
        mod.render_listing(str(share.root), rel)


OUTSIDE = ["..", "../", "../elsewhere", "../elsewhere/secretdir", "../elsewhere/nothere", "../nothere",
           "sub/../..", "sub/../../elsewhere", "link_out", "link_out/secretdir", "link_out/nothere",
           "/", "/etc", "../../../../../../etc", "../share_private", "../share_private/secretdir",
           "../share_privatx", "sub/../../share_private"]


@pytest.mark.parametrize("rel", OUTSIDE)
def test_outside_raises_value_error(share, rel):
    mod = load()
    with pytest.raises(ValueError):
        mod.render_listing(str(share.root), rel)


def test_an_absolute_path_outside_raises_value_error(share):
    mod = load()
    for rel in (str(share.outside), str(share.outside / "secretdir"), str(share.outside / "nothere"),
                str(share.sibling), str(share.sibling / "secretdir")):
        with pytest.raises(ValueError):
            mod.render_listing(str(share.root), rel)
