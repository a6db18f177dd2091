from notekeeper import views


def test_search_finds_title_and_body_ignoring_case(store, ann, bob):
    a = store.add(ann.id, "Groceries", "Milk, eggs")
    b = store.add(ann.id, "Milkshake recipe", "")
    store.add(ann.id, "Trip", "tickets")
    assert store.search(ann.id, "milk") == [a, b]


def test_search_view_lists_matches(store, ann):
    store.add(ann.id, "Groceries", "milk")
    resp = views.search_view(store, ann, {"q": "milk"})
    assert resp.status == 200
    assert "Results for" in resp.body and "Groceries" in resp.body
