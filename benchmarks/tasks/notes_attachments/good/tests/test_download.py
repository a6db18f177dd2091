from notekeeper import views


def test_download_own_attachment(store, attachments, ann):
    note = store.add(ann.id, "Trip")
    attachments.save(note.id, "t.pdf", b"%PDF")
    resp = views.download_view(store, attachments, ann, {"note": str(note.id), "name": "t.pdf"})
    assert (resp.status, resp.body) == (200, b"%PDF")


def test_no_download_of_other_users_attachment(store, attachments, ann, bob):
    note = store.add(bob.id, "Bob's")
    attachments.save(note.id, "b.txt", b"bob")
    assert views.download_view(store, attachments, ann, {"note": str(note.id), "name": "b.txt"}).status == 404


def test_no_dot_dot(store, attachments, ann):
    note = store.add(ann.id, "x")
    assert views.download_view(store, attachments, ann, {"note": str(note.id), "name": "../x"}).status == 404
