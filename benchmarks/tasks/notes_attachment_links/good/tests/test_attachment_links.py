from urllib.parse import parse_qs, urlsplit

from notekeeper import views


def test_link_round_trips_odd_names(store, attachments, ann):
    note = store.add(ann.id, "Meeting")
    for name in ["Q&A #2.txt", "100%.txt", "50%41.txt"]:
        attachments.save(note.id, name, b"x")
    body = views.note_view(store, attachments, ann, {"id": str(note.id)}).body
    hrefs = [part.split('"')[0].replace("&amp;", "&") for part in body.split('href="')[1:]]
    names = sorted(parse_qs(urlsplit(h).query)["name"][0] for h in hrefs if h.startswith("/attachment"))
    assert names == ["100%.txt", "50%41.txt", "Q&A #2.txt"]
