"""Page templates. Everything a user typed goes through escape() before it reaches the page."""

from html import escape


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


# Characters that break the query string of an attachment link, with their percent-encoding.
# '%' comes first so that the escapes added below are not encoded twice.
_QUERY_ESCAPES = [("%", "%25"), ("&", "%26"), ("#", "%23"), ("?", "%3F"), ("=", "%3D"), (" ", "%20")]


def _encode_name(name):
    for char, code in _QUERY_ESCAPES:
        name = name.replace(char, code)
    return name


def note_detail(note, attachment_names):
    files = "".join(
        f'<li><a href="/attachment?note={note.id}&amp;name={escape(_encode_name(name))}">{escape(name)}</a></li>'
        for name in attachment_names
    )
    return (
        f"<h1>{escape(note.title)}</h1>\n<pre>{escape(note.body)}</pre>\n"
        f'<ul class="attachments">{files}</ul>'
    )
