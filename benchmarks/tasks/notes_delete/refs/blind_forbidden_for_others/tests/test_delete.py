from notekeeper import views


def test_delete_own_note(store, attachments, ann):
    note = store.add(ann.id, "Trip", "tickets")
    attachments.save(note.id, "ticket.pdf", b"%PDF")
    resp = views.delete_view(store, attachments, ann, {"id": str(note.id)})
    assert resp.status == 303 and resp.headers == {"Location": "/"} and resp.body == ""
    assert store.get(ann.id, note.id) is None
    assert attachments.names(note.id) == []


def test_delete_returns_false_for_missing_or_foreign(store, ann, bob):
    note = store.add(bob.id, "Bob's plan")
    assert store.delete(ann.id, note.id) is False
    assert store.delete(ann.id, 12345) is False
    assert store.get(bob.id, note.id) == note
    assert store.delete(bob.id, note.id) is True


def test_delete_all_without_attachments(attachments):
    attachments.delete_all(7)


def test_cannot_delete_other_users_note(store, attachments, ann, bob):
    note = store.add(bob.id, "Bob's plan")
    attachments.save(note.id, "plan.txt", b"secret")
    resp = views.delete_view(store, attachments, ann, {"id": str(note.id)})
    assert resp.status == 403
    assert store.get(bob.id, note.id) == note
    assert attachments.names(note.id) == ["plan.txt"]


def test_bad_ids_are_not_found(store, attachments, ann):
    for params in ({}, {"id": ""}, {"id": "abc"}, {"id": "12345"}, {"id": "1.5"}):
        assert views.delete_view(store, attachments, ann, params).status == 404
