"""One function per page: (store, signed-in user, query parameters) -> Response."""

from dataclasses import dataclass, field

from notekeeper import html


@dataclass(frozen=True)
class User:
    id: int
    name: str


@dataclass
class Response:
    status: int
    body: bytes | str
    headers: dict = field(default_factory=lambda: {"Content-Type": "text/html; charset=utf-8"})


def not_found():
    return Response(404, html.page("Not found", "<p>Not found.</p>"))


def index_view(store, user, params):
    """GET / : the user's notes."""
    return Response(200, html.page("My notes", "<h1>My notes</h1>\n" + html.note_list(store.list_for(user.id))))


def note_view(store, attachments, user, params):
    """GET /note?id=N : one note with the names of its attachments."""
    try:
        note_id = int(params.get("id", ""))
    except ValueError:
        return not_found()
    note = store.get(user.id, note_id)
    if note is None:
        return not_found()
    return Response(200, html.page(note.title, html.note_detail(note, attachments.names(note.id))))


def delete_view(store, attachments, user, params):
    """POST /note/delete?id=N : delete one of the user's notes with its attachments."""
    try:
        note_id = int(params.get("id", ""))
    except (TypeError, ValueError):
        return not_found()
    if not store.delete(user.id, note_id):
        return not_found()
    attachments.delete_all(note_id)
    return Response(303, "", {"Location": "/"})
