from notekeeper import views


def test_delete_own_note(store, attachments, ann):
    note = store.add(ann.id, "Trip")
    attachments.save(note.id, "ticket.pdf", b"%PDF")
    resp = views.delete_view(store, attachments, ann, {"id": str(note.id)})
    assert (resp.status, resp.headers["Location"]) == (303, "/")
    assert store.get(ann.id, note.id) is None and attachments.names(note.id) == []


def test_someone_elses_note_is_not_found_and_kept(store, attachments, ann, bob):
    note = store.add(bob.id, "Bob's plan")
    attachments.save(note.id, "plan.txt", b"secret")
    resp = views.delete_view(store, attachments, ann, {"id": str(note.id)})
    missing = views.delete_view(store, attachments, ann, {"id": "999"})
    assert (resp.status, resp.body) == (missing.status, missing.body) == (404, missing.body)
    assert store.get(bob.id, note.id) is not None and attachments.names(note.id) == ["plan.txt"]
