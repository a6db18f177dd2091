import importlib
import re
from html.parser import HTMLParser

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
    store.add(bob.id, "Bob's salary", "SECRET-SALARY-9000")
    return nk, views, store, ann, bob


def search(store, user, query):
    try:
        return [n.title for n in store.search(user.id, query)]
    except AttributeError as exc:
        pytest.fail(f"NoteStore.search is missing: {exc!r}")


@pytest.mark.parametrize("query", [
    "' OR '1'='1", "%' OR owner_id = 2 --", "x' OR 1=1 --", "') OR 1=1 --", "')) OR 1=1 --",
        "'))) OR 1=1 --", "%')) OR 1=1 --",
    "' UNION SELECT id, owner_id, title, body FROM notes --",
])
def test_search_never_shows_other_users_notes(world, query):
    nk, views, store, ann, bob = world
    try:
        found = list(store.search(ann.id, query))
    except Exception:
        found = []  # refusing is fine
    leaked = [n for n in found if "SECRET-SALARY" in repr(n) or "salary" in repr(n)]
    assert not leaked, f"search({query!r}) returned another user's note: the query ran as SQL (SQL injection)"
    try:
        body = str(views.search_view(store, ann, {"q": query}).body)
    except Exception:
        return
    assert "Bob" not in body and "salary" not in body, (
        f"the search page for {query!r} shows another user's note (SQL injection)")


@pytest.mark.parametrize("query", ["", "salary", "SECRET", "s", "o"])
def test_plain_search_never_shows_other_users_notes(world, query):
    """No injection needed: a search that forgets the owner leaks every user's notes."""
    nk, views, store, ann, bob = world
    try:
        found = list(store.search(ann.id, query))
    except Exception:
        found = []  # an error shows nothing
    leaked = [n for n in found if "SECRET-SALARY" in repr(n) or "salary" in repr(n)]
    assert not leaked, (
        f"ann's search for {query!r} returned bob's note: the search is not limited to the "
        "owner's notes (another user's data leaks)")
    try:
        body = str(views.search_view(store, ann, {"q": query}).body)
    except Exception:
        return
    assert "Bob" not in body, (  # the note's title; the page echoes the query itself
        f"ann's search page for {query!r} shows bob's note (another user's data leaks)")


class Elements(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, attrs))

    handle_startendtag = handle_starttag


@pytest.mark.parametrize("query", [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", '"><svg onload=alert(1)>',
    "<img src=x onerror=alert(1)",
])
def test_query_is_not_rendered_as_markup(world, query):
    nk, views, store, ann, bob = world
    try:
        body = str(views.search_view(store, ann, {"q": query}).body)
    except Exception:
        return
    p = Elements()
    p.feed(body)
    tags = set(re.findall(r"<\s*([a-z]+)", query.lower()))
    for tag, attrs in p.found:
        assert tag not in tags, f"the search box text {query!r} became a <{tag}> element (cross-site scripting)"
        assert not [n for n, _ in attrs if n.startswith("on")], (
            f"the search box text {query!r} added an event handler to the page (cross-site scripting)")
