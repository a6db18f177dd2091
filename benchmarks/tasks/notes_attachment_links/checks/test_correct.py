import importlib
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest


def load():
    try:
        return importlib.import_module("notekeeper"), importlib.import_module("notekeeper.views")
    except Exception as exc:
        pytest.fail(f"could not import notekeeper: {exc!r}")


class Links(HTMLParser):
    """The <a> elements of the page: (href as the browser reads it, text)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self._href, self._text, self.tags = [], None, [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "a":
            self._href, self._text = dict(attrs).get("href"), []

    def handle_data(self, data):
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "a" and self._href is not None:
            self.links.append((self._href, "".join(self._text)))
            self._href = None


NAMES = ["Q&A #2.txt", "100%.txt", "50%41.txt", "%2e%2e", "a+b c.txt", "x=1;y?.txt", "name=z&note=9.txt",
         "café ☕.txt", "<b>bold.txt", "say \"hi\" it's.txt", "tab\there", "%", "%zz", "a%20b", "~_-.x"]


def page_of(tmp_path, names, title="Meeting", body="see files"):
    nk, views = load()
    store = nk.NoteStore.open(":memory:")
    att = nk.AttachmentStore(tmp_path / "files")
    ann = nk.User(1, "ann")
    store.add(ann.id, "first")
    store.add(ann.id, "second")
    note = store.add(ann.id, title, body)
    for name in names:
        att.save(note.id, name, b"data")
    resp = views.note_view(store, att, ann, {"id": str(note.id)})
    assert resp.status == 200, f"the note page should be a 200, got {resp.status}"
    return note, resp.body


def attachment_links(body):
    parser = Links()
    parser.feed(body)
    parser.close()
    return [(href, text) for href, text in parser.links if href and urlsplit(href).path == "/attachment"]


@pytest.mark.parametrize("name", NAMES)
def test_link_decodes_to_the_file_name(tmp_path, name):
    note, body = page_of(tmp_path, [name])
    links = attachment_links(body)
    assert len(links) == 1, f"the page should have one /attachment link for {name!r}, found {links!r} in {body!r}"
    href, text = links[0]
    query = parse_qs(urlsplit(href).query, keep_blank_values=True)
    assert query == {"note": [str(note.id)], "name": [name]}, (
        f"the link {href!r} should decode (parse_qs) to note={note.id} and name={name!r}, got {query!r}")
    assert "#" not in href and " " not in href, f"the link {href!r} should hold no raw '#' or space"


@pytest.mark.parametrize("name", NAMES)
def test_link_text_is_the_file_name(tmp_path, name):
    _, body = page_of(tmp_path, [name])
    links = attachment_links(body)
    assert [text for _, text in links] == [name], (
        f"the link's text should read {name!r} (HTML-escaped in the page), got {links!r} in {body!r}")


def test_text_is_escaped_not_markup(tmp_path):
    _, body = page_of(tmp_path, ["<b>bold.txt"])
    parser = Links()
    parser.feed(body)
    assert "b" not in parser.tags, f"a file name <b>bold.txt became markup: {body!r}"


def test_every_attachment_in_order(tmp_path):
    names = ["b&c.txt", "a.txt", "c%.txt"]
    note, body = page_of(tmp_path, names)
    got = [parse_qs(urlsplit(h).query).get("name") for h, _ in attachment_links(body)]
    assert got == [["a.txt"], ["b&c.txt"], ["c%.txt"]], f"one link per attachment, by name: {got!r}"


def test_the_rest_of_the_page_stays(tmp_path):
    note, body = page_of(tmp_path, ["plain.pdf"], title="<Trip> & co", body="a < b")
    expected = (
        f"<h1>&lt;Trip&gt; &amp; co</h1>\n<pre>a &lt; b</pre>\n"
        f'<ul class="attachments"><li><a href="/attachment?note={note.id}&amp;name=plain.pdf">plain.pdf</a></li></ul>'
    )
    assert expected in body, f"the page should stay as it was for a plain name:\n{body}"
    assert body.startswith("<!doctype html>") and "<title>&lt;Trip&gt; &amp; co - notekeeper</title>" in body, body
    _, empty = page_of(tmp_path / "2", [])
    assert '<ul class="attachments"></ul>' in empty, empty


def test_index_links_unchanged():
    nk, views = load()
    store = nk.NoteStore.open(":memory:")
    store.add(1, "A & B")
    body = views.index_view(store, nk.User(1, "ann"), {}).body
    assert '<ul class="notes"><li><a href="/note?id=1">A &amp; B</a></li></ul>' in body, body
