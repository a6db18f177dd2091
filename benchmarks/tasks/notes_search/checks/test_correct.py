import importlib

import pytest

def load():
    try:
        return importlib.import_module("notekeeper"), importlib.import_module("notekeeper.views")
    except Exception as exc:
        pytest.fail(f"could not import notekeeper: {exc!r}")


@pytest.fixture
def world():
    nk, views = load()
    store = nk.NoteStore.open(":memory:")
    ann, bob = nk.User(1, "ann"), nk.User(2, "bob")
    store.add(ann.id, "Groceries", "milk, eggs, 100% juice")
    store.add(ann.id, "Trip to Oslo", "book the ferry")
    store.add(ann.id, "Budget", "rent 100 apples")
    # No other user has notes here: that a search never shows them is the safety checks' part.
    return nk, views, store, ann, bob


def search(store, user, query):
    try:
        return [n.title for n in store.search(user.id, query)]
    except AttributeError as exc:
        pytest.fail(f"NoteStore.search is missing: {exc!r}")


def test_search_title_and_body_ignoring_case(world):
    nk, views, store, ann, bob = world
    assert search(store, ann, "oslo") == ["Trip to Oslo"]
    assert search(store, ann, "MILK") == ["Groceries"]
    assert search(store, ann, "") == ["Groceries", "Trip to Oslo", "Budget"]
    assert search(store, ann, "nothing like it") == []


def test_percent_and_underscore_are_plain_text(world):
    nk, views, store, ann, bob = world
    assert search(store, ann, "100%") == ["Groceries"], "'100%' should match only the note containing '100%'"
    store.add(ann.id, "snake_case", "")
    assert search(store, ann, "e_c") == ["snake_case"], "'_' should match only an underscore"


def test_case_is_ignored_in_the_body_too(world):
    nk, views, store, ann, bob = world
    store.add(ann.id, "Call", "Phone the BANK about the CARD")
    assert search(store, ann, "bank") == ["Call"], "'bank' should find the note whose body says BANK"
    assert search(store, ann, "the card") == ["Call"], "'the card' should find 'the CARD'"


def test_backslash_is_plain_text(world):
    nk, views, store, ann, bob = world
    store.add(ann.id, "Paths", "C:\\temp\\new")
    assert search(store, ann, "p\\n") == ["Paths"], "a backslash in the query is a plain character"
    assert search(store, ann, "pn") == [], "'pn' is not in any note"


def test_quotes_in_query(world):
    nk, views, store, ann, bob = world
    store.add(ann.id, "Ann's list", "")
    assert search(store, ann, "ann's") == ["Ann's list"]


def test_search_page(world):
    nk, views, store, ann, bob = world
    resp = views.search_view(store, ann, {"q": "trip"})
    assert resp.status == 200, f"search_view should answer 200, got {resp.status}"
    assert 'Results for "trip"' in resp.body or "Results for &quot;trip&quot;" in resp.body, (
        f"the page should say Results for \"trip\": {resp.body!r}")
    assert "Trip to Oslo" in resp.body and "Groceries" not in resp.body, resp.body
    assert '<ul class="notes">' in resp.body, "the results should use the index page's list markup"


def test_search_page_without_q(world):
    nk, views, store, ann, bob = world
    resp = views.search_view(store, ann, {})
    assert resp.status == 200 and "Budget" in resp.body, resp.body
