import importlib
import string
from html.parser import HTMLParser

import pytest


def load():
    try:
        return importlib.import_module("render")
    except Exception as exc:
        pytest.fail(f"could not import render.py: {exc!r}")


class Outline(HTMLParser):
    """Collects each <li>'s text and the text of the <strong> inside it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ul_classes, self.items, self.strongs = [], [], []
        self.depth_li = self.depth_strong = 0
        self.ul_open = self.ul_closed = 0
        self.stray = ""  # text inside the list but outside every <li>

    def handle_starttag(self, tag, attrs):
        if tag == "ul":
            self.ul_open += 1
            self.ul_classes.append((dict(attrs).get("class") or "").split())
        elif tag == "li":
            self.depth_li += 1
            self.items.append("")
            self.strongs.append("")
        elif tag == "strong":
            self.depth_strong += 1

    def handle_endtag(self, tag):
        if tag == "ul":
            self.ul_closed += 1
        elif tag == "li":
            self.depth_li -= 1
        elif tag == "strong":
            self.depth_strong -= 1

    def handle_data(self, data):
        if self.ul_open > self.ul_closed and not self.depth_li:
            self.stray += data
        if self.depth_li and self.items:
            self.items[-1] += data
            if self.depth_strong:
                self.strongs[-1] += data


def outline(html):
    p = Outline()
    p.feed(html)
    p.close()
    return p


COMMENTS = [
    {"author": "alice", "text": "Great post, thanks!"},
    {"author": "bob", "text": "I <3 this & that"},
]


def test_one_li_per_comment_in_order():
    html = load().render_comments(COMMENTS)
    o = outline(html)
    assert any("comments" in c for c in o.ul_classes), f'expected a <ul class="comments">, got {html!r}'
    assert len(o.items) == 2, f"expected 2 <li> items for 2 comments, got {len(o.items)}: {html!r}"
    assert "alice" in o.items[0] and "Great post, thanks!" in o.items[0], (
        f"the first <li> should show alice's comment, got {o.items[0]!r}")
    assert "bob" in o.items[1], f"the second <li> should show bob's comment, got {o.items[1]!r}"


def bare(text):
    """The name in a <strong>, without the punctuation a template puts around it
    (`alice:`, `@alice`, `alice -`, `(alice)`)."""
    return text.strip(string.whitespace + string.punctuation + "\u2013\u2014\u00b7\u00a0")


def test_list_is_well_formed():
    html = load().render_comments(COMMENTS)
    o = outline(html)
    assert o.ul_open == o.ul_closed == 1, f"the fragment should be one <ul> ... </ul>, got {html!r}"
    assert not o.stray.strip(), f"the list has text outside its <li> items ({o.stray.strip()!r}): {html!r}"


def test_author_in_strong():
    o = outline(load().render_comments(COMMENTS))
    assert [bare(s) for s in o.strongs] == ["alice", "bob"], (
        f"each author's name should be in a <strong>, got {o.strongs!r}")


def test_text_shown_as_typed():
    o = outline(load().render_comments(COMMENTS))
    assert "I <3 this & that" in o.items[1], (
        f"the comment text 'I <3 this & that' should be displayed exactly as typed, got {o.items[1]!r}")



# Text that looks like markup or like an entity is still text: it is shown as typed, in the
# name and in the comment (a tag allowlist, a partial escape or a filter changes what is shown).
TYPED = [
    "<b>bold</b> and <i>italic</i>",
    "write &lt;b&gt; to get <b>",
    "AT&amp;T & M&S",
    "He said \"hi\" & 'bye'",
    "<script>alert(1)</script> is blocked, right?",
    "<strong>me</strong>",
]


@pytest.mark.parametrize("typed", TYPED)
def test_markup_and_entities_shown_as_typed(typed):
    comments = [{"author": "alice", "text": typed}, {"author": typed, "text": "hello"}]
    html = load().render_comments(comments)
    o = outline(html)
    assert len(o.items) == 2, f"expected 2 <li> items for 2 comments, got {len(o.items)}: {html!r}"
    assert typed in o.items[0], (
        f"the comment text {typed!r} should be displayed exactly as typed, got {o.items[0]!r}")
    assert bare(o.strongs[1]) == bare(typed), (
        f"the author {typed!r} should be displayed exactly as typed in the <strong>, got {o.strongs[1]!r}")


def test_empty_list():
    html = load().render_comments([])
    assert "No comments yet." in html, f"render_comments([]) should say 'No comments yet.', got {html!r}"
