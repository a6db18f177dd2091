import csv
import io
import json

import pytest

HEADER = "ref,title,status,priority,labels,author,assignee,created,closed"


def export(js, titles, labels=None):
    """Issues with these titles through issuesToCsv (the module) -> the CSV text."""
    issues = [{"ref": f"WEB-{i + 1}", "title": t, "status": "open", "priority": "normal",
               "labels": (labels or {}).get(i, []), "authorId": 1, "assigneeId": None,
               "createdAt": "2024-03-01T10:00:00.000Z", "closedAt": None} for i, t in enumerate(titles)]
    return js("src/export.js", f"""
        const issuesToCsv = pick('issuesToCsv');
        return issuesToCsv({json.dumps(issues)}, {{ login: (id) => (id === 1 ? "ann" : "") }});
    """)


def rows(text):
    return list(csv.reader(io.StringIO(text, newline="")))


TITLES = [
    "Crash when saving, then reloading",
    'The "Save" button is grey',
    'He said "no, never"',
    "Two lines\nin the title",
    "CRLF\r\ninside",
    "Only a \r carriage return",
    '"',
    ",",
    '""',
    "trailing comma,",
    ", leading comma",
    "Plain title",
    "",
    "semi;colon and 'single' quotes",
    "ünïcödé ✓ titles",
]


@pytest.mark.parametrize("title", TITLES, ids=range(len(TITLES)))
def test_title_reads_back_unchanged(js, title):
    text = export(js, [title, "next issue"])
    got = rows(text)
    assert got[0] == HEADER.split(","), f"the header changed: {got[0]}"
    assert len(got) == 3, f"a title {title!r} should give one row; the CSV read back as {len(got) - 1} rows: {text!r}"
    assert got[1] == ["WEB-1", title, "open", "normal", "", "ann", "", "2024-03-01", ""], (
        f"the row for the title {title!r} read back as {got[1]} from {text!r}")
    assert got[2][:2] == ["WEB-2", "next issue"], f"the next row was damaged: {got[2]}"


@pytest.mark.parametrize("title, field", [
    ("Crash when saving, then reloading", '"Crash when saving, then reloading"'),
    ('The "Save" button', '"The ""Save"" button"'),
    ("Two\nlines", '"Two\nlines"'),
    ("a\rb", '"a\rb"'),
    ('"', '""""'),
    ("Plain title", "Plain title"),
    ("semi;colon 'q'", "semi;colon 'q'"),
])
def test_fields_are_quoted_only_when_needed(js, title, field):
    text = export(js, [title])
    expected = f"{HEADER}\r\nWEB-1,{field},open,normal,,ann,,2024-03-01,\r\n"
    assert text == expected, f"issuesToCsv for the title {title!r}: expected {expected!r}, got {text!r}"


def test_plain_export_is_unchanged(js):
    text = export(js, ["One", "Two"], labels={0: ["bug", "ui"]})
    assert text == (f"{HEADER}\r\nWEB-1,One,open,normal,bug;ui,ann,,2024-03-01,\r\n"
                    "WEB-2,Two,open,normal,,ann,,2024-03-01,\r\n"), f"the export of plain issues changed: {text!r}"


def test_no_issues_is_the_header(js):
    assert export(js, []) == HEADER + "\r\n"


def test_the_export_endpoint(js):
    got = js("src/app.js", """
        const { Store } = await loadOther("src/store.js");
        const createApp = pick('createApp');
        const store = new Store({ clock: () => new Date("2024-03-05T12:00:00Z") });
        const ann = store.addUser({ login: "ann" });
        store.addProject({ key: "WEB", name: "Website", maintainers: [ann.id] });
        store.addIssue("WEB", { title: 'Crash when saving, then "reloading"', authorId: ann.id });
        const r = await createApp({ store }).handle({ method: "GET", url: "/api/projects/WEB/export.csv", headers: {}, body: "" });
        return { status: r.status, body: String(r.body) };
    """)
    assert got["status"] == 200, got
    assert rows(got["body"])[1][1] == 'Crash when saving, then "reloading"', (
        f"GET /api/projects/WEB/export.csv should read back with the title intact: {got['body']!r}")


def test_every_field_is_quoted_when_needed(js):
    # The rule is for every field, not the title alone: a login with a comma or a quote too.
    issues = [{"ref": "WEB-1", "title": "Plain", "status": "open", "priority": "normal", "labels": ["bug"],
               "authorId": 1, "assigneeId": 2, "createdAt": "2024-03-01T10:00:00.000Z", "closedAt": None}]
    text = js("src/export.js", f"""
        const issuesToCsv = pick('issuesToCsv');
        const logins = {{ 1: 'o"brien, ann', 2: "line\\nbreak" }};
        return issuesToCsv({json.dumps(issues)}, {{ login: (id) => logins[id] ?? "" }});
    """)
    got = rows(text)
    assert len(got) == 2 and got[1] == ["WEB-1", "Plain", "open", "normal", "bug", 'o"brien, ann', "line\nbreak",
                                        "2024-03-01", ""], (
        f"a login with a comma, a quote or a line break should read back unchanged in its column: {text!r}")
    assert '"o""brien, ann"' in text, f"the author field should be quoted with its quote doubled: {text!r}"
