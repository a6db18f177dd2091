import pytest
from conftest import ANN_NOTES, BOB_NOTES, make_world, state


def call(views, store, att, user, params):
    try:
        return views.delete_view(store, att, user, params)
    except Exception as exc:
        pytest.fail(f"delete_view(..., {params!r}) raised {exc!r}")


def test_deletes_own_note_and_its_attachments(tmp_path):
    nk, views, store, att, ann, bob = make_world(tmp_path)
    resp = call(views, store, att, ann, {"id": "1"})
    assert resp.status == 303 and resp.headers.get("Location") == "/" and resp.body in ("", b""), (
        f"deleting one's own note should answer Response(303, '', {{'Location': '/'}}), got "
        f"{resp.status} {resp.headers!r} {resp.body!r}")
    assert store.get(ann.id, 1) is None and [n.id for n in store.list_for(ann.id)] == [3, 12], (
        f"note 1 should be gone and ann's notes 3 and 12 kept: {[n.id for n in store.list_for(ann.id)]}")
    assert att.names(1) == [] and not (tmp_path / "files" / "1").exists(), "note 1's attachment folder should be removed"
    assert att.names(12) == ["file12.txt"] and att.names(123) == ["file123.txt"], "other notes' files must stay"
    assert [n.id for n in store.list_for(bob.id)] == list(BOB_NOTES), "bob's notes stay"


def test_deleting_twice_is_not_found(tmp_path):
    nk, views, store, att, ann, bob = make_world(tmp_path)
    call(views, store, att, ann, {"id": "12"})
    again = call(views, store, att, ann, {"id": "12"})
    assert again.status == 404 and again.body == views.not_found().body, f"a deleted note is not found: {again}"
    assert [n.id for n in store.list_for(ann.id)] == [1, 3], store.list_for(ann.id)


@pytest.mark.parametrize("params", [{}, {"id": ""}, {"id": "abc"}, {"id": "1.5"}, {"id": "999"}, {"id": "0"},
                                    {"id": "-3"}, {"id": "1; DROP TABLE notes"}, {"id": "\u00b2"},
                                    {"id": "9223372036854775808"},
                                    {"id": "99999999999999999999"}, {"id": "-99999999999999999999"}],
                         ids=["missing", "empty", "abc", "float", "unknown", "zero", "negative", "sql", "superscript",
                              "int64-max-plus-1", "beyond-int64", "below-int64"])
def test_refusals_are_not_found_and_delete_nothing(tmp_path, params):
    nk, views, store, att, ann, bob = make_world(tmp_path)
    before = state(store, att, ann.id, ANN_NOTES)
    resp = call(views, store, att, ann, params)
    expected = views.not_found()
    assert (resp.status, resp.body, resp.headers) == (expected.status, expected.body, expected.headers), (
        f"delete_view with {params!r} should answer the existing not_found(), got {resp.status} {resp.body!r}")
    assert state(store, att, ann.id, ANN_NOTES) == before, f"delete_view with {params!r} deleted something"


def test_store_delete_says_what_it_did(tmp_path):
    nk, views, store, att, ann, bob = make_world(tmp_path)
    got = [store.delete(ann.id, 3), store.delete(ann.id, 3), store.delete(ann.id, 999), store.delete(ann.id, 2)]
    assert got == [True, False, False, False], (
        f"NoteStore.delete(owner, id) should be True for one's own note, then False (deleted, unknown, "
        f"someone else's): got {got}")
    assert store.get(ann.id, 3) is None and [n.id for n in store.list_for(ann.id)] == [1, 12], store.list_for(ann.id)


def test_deletion_is_saved(tmp_path):
    """The deletion outlives the connection: a store reopened on the same file no longer has the note."""
    nk, views, store, att, ann, bob = make_world(tmp_path)
    db = tmp_path / "notes.db"
    disk = nk.NoteStore.open(str(db))
    for i in range(1, 4):
        disk.add(ann.id, f"note {i}", "")
    resp = call(views, disk, att, ann, {"id": "3"})
    assert resp.status == 303, f"deleting one's own note should answer 303, got {resp.status}"
    disk.conn.close()
    again = nk.NoteStore.open(str(db))
    assert [n.id for n in again.list_for(ann.id)] == [1, 2], (
        f"after delete_view the note should be gone from the database file too (committed): "
        f"{[n.id for n in again.list_for(ann.id)]}")
    again.conn.close()


def test_the_largest_id_is_deleted(tmp_path):
    """SQLite's largest INTEGER is a note id like any other."""
    nk, views, store, att, ann, bob = make_world(tmp_path)
    top = 2**63 - 1
    store.conn.execute("INSERT INTO notes (id, owner_id, title, body) VALUES (?, ?, 'top', '')", (top, ann.id))
    store.conn.commit()
    resp = call(views, store, att, ann, {"id": str(top)})
    assert resp.status == 303 and store.get(ann.id, top) is None, (
        f"ann's note {top} should be deleted with a 303, got {resp.status}")


def test_delete_all(tmp_path):
    nk, views, store, att, ann, bob = make_world(tmp_path)
    att.save(3, "second.txt", b"2")
    att.delete_all(3)  # its return value is left open
    assert att.names(3) == [] and not (tmp_path / "files" / "3").exists(), "delete_all should remove the folder"
    assert att.names(1) == ["file1.txt"] and att.names(12) == ["file12.txt"], "other notes' folders stay"
    try:
        att.delete_all(55)
        att.delete_all(3)
        nk.AttachmentStore(tmp_path / "nothing-yet").delete_all(1)
    except Exception as exc:
        pytest.fail(f"delete_all of a note without attachments should do nothing, it raised {exc!r}")
