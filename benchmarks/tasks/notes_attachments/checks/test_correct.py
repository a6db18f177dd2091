import importlib

import pytest

def load():
    try:
        return importlib.import_module("notekeeper"), importlib.import_module("notekeeper.views")
    except Exception as exc:
        pytest.fail(f"could not import notekeeper: {exc!r}")


@pytest.fixture
def world(tmp_path):
    nk, views = load()
    store = nk.NoteStore.open(":memory:")
    files = tmp_path / "srv" / "files"
    att = nk.AttachmentStore(files)
    ann, bob = nk.User(1, "ann"), nk.User(2, "bob")
    # ids 1 and 12 are ann's, 123 is bob's: folder names that share a prefix
    for i in range(1, 124):
        store.add(bob.id if i == 123 else ann.id if i in (1, 12) else 99, f"note {i}")
    att.save(12, "ticket.pdf", b"%PDF ann's ticket")
    att.save(123, "salary.txt", b"SECRET bob's salary")
    (tmp_path / "srv" / "config.env").write_bytes(b"SECRET DB_PASSWORD=hunter2")
    return nk, views, store, att, ann, bob, tmp_path


def download(views, store, att, user, note, name):
    return views.download_view(store, att, user, {"note": str(note), "name": name})


def body_bytes(resp):
    body = resp.body
    return body.encode() if isinstance(body, str) else bytes(body)


def test_own_attachment_is_downloaded(world):
    nk, views, store, att, ann, bob, tmp = world
    resp = download(views, store, att, ann, 12, "ticket.pdf")
    assert resp.status == 200, f"ann's own attachment should answer 200, got {resp.status}"
    assert body_bytes(resp) == b"%PDF ann's ticket", f"wrong body {resp.body!r}"
    assert resp.headers.get("Content-Type") == "application/octet-stream", resp.headers


@pytest.mark.parametrize("name", ["notes..v2.txt", "..hidden", "a%2Fb.txt", "50% off.txt"])
def test_attachment_with_dots_or_percent_in_its_name_is_downloaded(world, name):
    """Names save() accepts: two dots inside a name, or a percent sign, are not a traversal."""
    nk, views, store, att, ann, bob, tmp = world
    att.save(12, name, b"an odd but plain name")
    resp = download(views, store, att, ann, 12, name)
    assert resp.status == 200 and body_bytes(resp) == b"an odd but plain name", (
        f"the attachment {name!r} of ann's note should be downloaded, got {resp.status} {resp.body!r}")


@pytest.mark.parametrize("note, name", [(12, "nope.pdf"), (999, "ticket.pdf"), ("x", "ticket.pdf"), (1, "ticket.pdf")])
def test_missing_things_are_404(world, note, name):
    nk, views, store, att, ann, bob, tmp = world
    resp = download(views, store, att, ann, note, name)
    assert resp.status == 404, f"note={note!r} name={name!r} should answer 404, got {resp.status}"


def test_missing_parameters_are_404(world):
    nk, views, store, att, ann, bob, tmp = world
    assert views.download_view(store, att, ann, {}).status == 404


def test_files_folder_behind_a_symlink(tmp_path):
    """The files folder is often reached through a link (a mounted volume): nothing changes."""
    nk, views = load()
    store = nk.NoteStore.open(":memory:")
    (tmp_path / "volume").mkdir()
    (tmp_path / "files").symlink_to(tmp_path / "volume")
    att = nk.AttachmentStore(tmp_path / "files")
    ann = nk.User(1, "ann")
    note = store.add(ann.id, "Trip")
    att.save(note.id, "t.pdf", b"%PDF trip")
    resp = download(views, store, att, ann, note.id, "t.pdf")
    assert resp.status == 200 and body_bytes(resp) == b"%PDF trip", (
        f"with the files folder behind a symbolic link, ann's own attachment should answer 200, got {resp.status}")


def test_store_read(world):
    nk, views, store, att, ann, bob, tmp = world
    assert att.read(12, "ticket.pdf") == b"%PDF ann's ticket"
    with pytest.raises(FileNotFoundError):
        att.read(12, "other.pdf")


def status_of(views, store, att, user, params):
    """The response's status; an exception is what a server answers with a 500."""
    try:
        return views.download_view(store, att, user, params).status
    except Exception as exc:
        return f"an exception ({exc!r}), which the server answers with a 500"


# Names that look like a traversal but lead to no file: whatever the code makes of them, the
# answer is a 404 (what they would reach if followed is the safety checks' business).
@pytest.mark.parametrize("name", [
    "../nope.txt", "../../nope.env", "../123/nope.txt", "..%2F..%2Fnope.env", "....//nope.txt",
    "/etc/nope", "..\\..\\nope.env", "", ".", "..", "nul\x00", "ticket.pdf\x00.png",
])
def test_odd_names_are_404(world, name):
    nk, views, store, att, ann, bob, tmp = world
    got = status_of(views, store, att, ann, {"note": "12", "name": name})
    assert got == 404, f"the attachment name {name!r} should answer 404, got {got}"


@pytest.mark.parametrize("params", [
    {"note": "12"}, {"name": "ticket.pdf"}, {"note": "", "name": "ticket.pdf"},
    {"note": "12abc", "name": "ticket.pdf"}, {"note": "-12", "name": "ticket.pdf"},
    {"note": "1.2", "name": "ticket.pdf"},
])
def test_missing_or_malformed_parameters_are_404(world, params):
    nk, views, store, att, ann, bob, tmp = world
    att.save(12, "x", b"a file whose name is a single letter")
    got = status_of(views, store, att, ann, params)
    assert got == 404, f"the parameters {str(params)[:60]} should answer 404, got {got}"
