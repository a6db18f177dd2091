import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from notekeeper import views


def attachment_links(body):
    """(decoded query parameters, link text) for each attachment link of the page."""
    links = re.findall(r'<a href="(/attachment\?[^"]*)">([^<]*)</a>', body)
    return [(parse_qs(urlsplit(html.unescape(href)).query), html.unescape(text)) for href, text in links]


@pytest.mark.parametrize("name", ["Q&A #2.txt", "100%.txt", "50%41.txt", "plain.txt", "my notes.md"])
def test_attachment_link_gives_back_the_name(store, attachments, ann, name):
    note = store.add(ann.id, "Meeting")
    attachments.save(note.id, name, b"data")
    body = views.note_view(store, attachments, ann, {"id": str(note.id)}).body
    [(params, text)] = attachment_links(body)
    assert params == {"note": [str(note.id)], "name": [name]}
    assert text == name
