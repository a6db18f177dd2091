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


def download_view(store, attachments, user, params):
    note_text, name = params.get("note"), params.get("name")
    if not note_text or not name or not str(note_text).isdigit():
        return not_found()
    if store.get(user.id, int(note_text)) is None:
        return not_found()
    try:
        return Response(200, attachments.read(int(note_text), name),
                        headers={"Content-Type": "application/octet-stream"})
    except FileNotFoundError:
        return not_found()
