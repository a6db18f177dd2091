"""Page templates. Everything a user typed goes through escape() before it reaches the page."""

from html import escape
from urllib.parse import quote


def page(title, body):
    return (
        "<!doctype html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{escape(title)} - notekeeper</title></head>\n<body>\n{body}\n</body></html>"
    )


def note_list(notes):
    if not notes:
        return "<p class=\"empty\">No notes.</p>"
    items = "".join(
        f'<li><a href="/note?id={n.id}">{escape(n.title)}</a></li>' for n in notes
    )
    return f'<ul class="notes">{items}</ul>'


def note_detail(note, attachment_names):
    files = "".join(
        f'<li><a href="/attachment?note={note.id}&amp;name={quote(escape(name), safe="")}">{escape(name)}</a></li>'
        for name in attachment_names
    )
    return (
        f"<h1>{escape(note.title)}</h1>\n<pre>{escape(note.body)}</pre>\n"
        f'<ul class="attachments">{files}</ul>'
    )
