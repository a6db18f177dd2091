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


def outcome(views, store, att, user, note, name):
    try:
        resp = download(views, store, att, user, note, name)
    except Exception as exc:
        return f"raised {type(exc).__name__}"
    return f"{resp.status} {body_bytes(resp)!r}"


@pytest.mark.parametrize("template", [
    "../123/{f}", "../../{f}", "/{tmp}/srv/{f}", "../12/../../{f}",
])
def test_a_file_outside_the_note_is_not_told_from_a_missing_one(world, template):
    """An existence oracle: a name leading to a file outside the note that exists must get the
    answer a missing one gets (a 500 for one and a 404 for the other tells which files exist)."""
    nk, views, store, att, ann, bob, tmp = world
    (tmp / "srv" / "files" / "123" / "config.env").write_bytes(b"SECRET bob's other file")
    there, missing = (
        template.replace("/{tmp}", str(tmp)).replace("{f}", f) for f in ("config.env", "no-such.env")
    )
    got = outcome(views, store, att, ann, 12, there), outcome(views, store, att, ann, 12, missing)
    assert got[0] == got[1], (
        f"the name {there!r} (a file outside the note that exists) got {got[0]}, but {missing!r} (one that "
        f"does not) got {got[1]}: the answer tells which files exist outside the note's folder; give both the 404")
