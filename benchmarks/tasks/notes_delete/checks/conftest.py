"""The notes and files the checks of notes_delete start from (not a test file)."""

import importlib

import pytest


def load():
    try:
        return importlib.import_module("notekeeper"), importlib.import_module("notekeeper.views")
    except Exception as exc:
        pytest.fail(f"could not import notekeeper: {exc!r}")


ANN_NOTES = (1, 3, 12)
BOB_NOTES = (2, 4, 123)


def make_world(tmp_path):
    """ann (id 1) owns notes 1, 3 and 12, bob (id 2) notes 2, 4 and 123; every note has a file.
    Ids 1, 12 and 123 share a prefix, as their folder names do."""
    nk, views = load()
    store = nk.NoteStore.open(":memory:")
    att = nk.AttachmentStore(tmp_path / "files")
    ann, bob = nk.User(1, "ann"), nk.User(2, "bob")
    for i in range(1, 124):
        owner = ann.id if i in ANN_NOTES else bob.id if i in BOB_NOTES else 77
        store.add(owner, f"note {i}", f"body {i}")
    for i in ANN_NOTES + BOB_NOTES:
        att.save(i, f"file{i}.txt", f"data {i}".encode())
    return nk, views, store, att, ann, bob


def state(store, att, owner_id, ids):
    """{note id: (title or None, attachment names)} of the notes ids as owner_id sees them."""
    return {i: (getattr(store.get(owner_id, i), "title", None), att.names(i)) for i in ids}
