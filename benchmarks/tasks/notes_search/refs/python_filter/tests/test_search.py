from notekeeper import views


def test_search_finds_own_notes_only(store, ann, bob):
    store.add(ann.id, "Trip to Oslo", "ferry")
    store.add(bob.id, "Oslo office", "")
    assert [n.title for n in store.search(ann.id, "oslo")] == ["Trip to Oslo"]


def test_search_page_escapes_the_query(store, ann):
    body = views.search_view(store, ann, {"q": "<b>"}).body
    assert "&lt;b&gt;" in body
