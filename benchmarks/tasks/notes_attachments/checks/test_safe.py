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


def test_another_users_attachment_is_never_served(world):
    nk, views, store, att, ann, bob, tmp = world
    try:
        resp = download(views, store, att, ann, 123, "salary.txt")
    except Exception:
        return
    assert b"SECRET" not in body_bytes(resp), (
        "ann downloaded an attachment of bob's note: the view does not check who owns the note")


@pytest.mark.parametrize("note, name", [
    (12, "../123/salary.txt"),
    (12, "../../config.env"),
    (12, "..%2F..%2Fconfig.env"),
    (1, "../12/../123/salary.txt"),
    (12, "/{tmp}/srv/config.env"),
    (12, "....//....//config.env"),
])
def test_name_cannot_leave_the_notes_folder(world, note, name):
    nk, views, store, att, ann, bob, tmp = world
    name = name.replace("/{tmp}", str(tmp))
    try:
        resp = download(views, store, att, ann, note, name)
    except Exception:
        return  # an error serves nothing
    assert b"SECRET" not in body_bytes(resp), (
        f"the attachment name {name!r} served a file outside the note's folder (path traversal)")
