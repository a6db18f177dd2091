import json

import pytest
from conftest import MAKE_WORLD, WORLD


def run(js, body):
    return js("src/app.js", WORLD + body)


def test_author_edits_the_body(js):
    got = run(js, """
        const r = await send("PATCH", "/api/comments/1", "dave", { body: "  Same here on **Firefox**  " });
        const at = now();
        const listed = await send("GET", "/api/issues/1/comments", null, "");
        return { r, at, listed, after: stored(1) };
    """)
    r, listed = got["r"], got["listed"]
    assert r["status"] == 200, f"dave's PATCH of his own comment should be 200: {r}"
    assert r["body"]["body"] == "  Same here on **Firefox**  ", f"the body is stored as sent (as when commenting): {r['body']}"
    assert r["body"]["editedAt"] == got["at"], f"editedAt should be the time of the edit ({got['at']}): {r['body']}"
    assert r["body"]["author"] == "dave" and r["body"]["id"] == 1 and r["body"]["issue"] == 1, r["body"]
    assert r["body"]["createdAt"] == "2024-03-05T12:00:00.000Z", f"createdAt stays: {r['body']}"
    assert listed["status"] == 200 and listed["body"][0] == r["body"], (
        f"the answer should be the comment as GET /api/issues/1/comments lists it: {r['body']} vs {listed['body'][0]}")
    assert listed["body"][1]["body"] == "Screenshot attached" and listed["body"][1]["editedAt"] is None, (
        f"the other comment is unchanged and was never edited (editedAt null): {listed['body'][1]}")


def test_edited_at_is_the_last_edit_and_null_before(js):
    got = run(js, """
        const out = [await send("GET", "/api/issues/2/comments", null, "")];
        out.push(await send("POST", "/api/issues/2/comments", "cat", { body: "Thanks" }));
        out.push(await send("PATCH", "/api/comments/3", "ann", { body: "Rotated the logs twice" }));
        out.push(await send("PATCH", "/api/comments/3", "ann", { body: "Rotated the logs, and again" }));
        out.push(now());
        out.push(await send("GET", "/api/issues/2/comments", null, ""));
        return out;
    """)
    listed, posted, first, second, at, relisted = got
    assert listed["body"] and all("editedAt" in c and c["editedAt"] is None for c in listed["body"]), (
        f"a comment never edited shows editedAt: null in the listing: {listed['body']}")
    assert posted["status"] == 201 and "editedAt" in posted["body"] and posted["body"]["editedAt"] is None, (
        f"the answer of POST /api/issues/:id/comments shows editedAt: null: {posted['body']}")
    assert first["status"] == 200 and second["status"] == 200, (first, second)
    assert second["body"]["editedAt"] == at and first["body"]["editedAt"] != at, (
        f"editedAt is the time of the last edit ({at}): {first['body']} then {second['body']}")
    assert [c["body"] for c in relisted["body"]] == ["Rotated the logs, and again", "Thanks"], relisted["body"]
    assert relisted["body"][0]["editedAt"] == at and relisted["body"][1]["editedAt"] is None, relisted["body"]


REFUSED = [
    ("ann", 1, {"body": "x"}, 403),            # WEB's maintainer
    ("cat", 1, {"body": "x"}, 403),            # another project's maintainer
    ("bob", 3, {"body": "x"}, 403),            # a stranger to OPS-1, on ann's comment there
    (None, 1, {"body": "x"}, 401),
    ("it_not_a_token", 1, {"body": "x"}, 401),
    ("dave", 99, {"body": "x"}, 404),
    ("dave", "abc", {"body": "x"}, 404),
    ("dave", "0", {"body": "x"}, 404),
    ("dave", 1, {"body": ""}, 400),
    ("dave", 1, {"body": "   "}, 400),
    ("dave", 1, {"body": 5}, 400),
    ("dave", 1, {"body": ["x"]}, 400),
    ("dave", 1, {"body": None}, 400),
    ("dave", 1, {}, 400),
    ("dave", 1, {"body": "x" * 20001}, 400),
    ("dave", 1, {"body": "fixed", "authorId": 2}, 400),
    ("dave", 1, {"body": "fixed", "editedAt": None}, 400),
    ("dave", 1, {"body": "fixed", "issueId": 2}, 400),
    ("dave", 1, {"body": "fixed", "createdAt": "2020-01-01T00:00:00.000Z"}, 400),
    ("dave", 1, "{oops", 400),
    ("dave", 1, "[1]", 400),
    ("dave", 1, "null", 400),
    ("dave", 1, '"text"', 400),
    # the order: 401, then 404, then 403, then 400
    (None, 99, {"body": "x"}, 401),
    (None, 1, "{oops", 401),
    ("ann", 99, {"body": ""}, 404),
    ("ann", 1, {"body": ""}, 403),
    ("ann", 1, "{oops", 403),
    ("cat", 1, {"body": "x", "authorId": 2}, 403),
]


@pytest.fixture(scope="module")
def refused(js_batch):
    """Every request of REFUSED against a fresh world, in one node run."""
    cases = [[who, cid, body] for who, cid, body, _ in REFUSED]
    return js_batch("src/app.js", MAKE_WORLD + f"""
        const out = [];
        for (const [who, cid, body] of {json.dumps(cases)}) {{
            const w = makeWorld();
            const before = [w.stored(1), w.stored(2), w.stored(3)];
            const r = await w.send("PATCH", `/api/comments/${{cid}}`, who, body);
            out.push({{ r, before, after: [w.stored(1), w.stored(2), w.stored(3)] }});
        }}
        return out;
    """, timeout=60)


@pytest.mark.parametrize("case", range(len(REFUSED)),
                         ids=[f"{w}-{c}-{json.dumps(b)[:40]}-{s}" for w, c, b, s in REFUSED])
def test_refused_requests(refused, case):
    who, cid, body, status = REFUSED[case]
    r = refused[case]["r"]
    assert r["status"] == status, (
        f"PATCH /api/comments/{cid} by {who or 'no token'} with {body!r:.80} should be a {status}, got {r['status']} {r['body']!r}")
    assert isinstance(r["body"], dict) and "error" in r["body"], f"the usual {{\"error\": ...}} body: {r['body']!r}"
    if who == "dave" and cid == 1:  # the author's own comment: a refused edit leaves it as it was
        assert refused[case]["after"] == refused[case]["before"], (
            f"a refused PATCH changed the comment: {refused[case]['before']} -> {refused[case]['after']}")


ODD_IDS = ["01", "+1", "1.0", "1e0", "0x1", " 1", "1 "]


def test_unknown_ids_are_those_delete_does_not_know(js):
    """An id DELETE /api/comments/:id answers 404 for is unknown to PATCH as well, even when
    Number() would read it as comment 1 (dave, its author, asks)."""
    got = run(js, f"""
        const out = [];
        for (const id of {json.dumps(ODD_IDS)}) {{
            const patch = await send("PATCH", "/api/comments/" + encodeURIComponent(id), "dave", {{ body: "x" }});
            out.push([id, patch.status, stored(1).body]);
        }}
        const del = [];
        for (const id of {json.dumps(ODD_IDS)}) del.push((await send("DELETE", "/api/comments/" + encodeURIComponent(id), "dave", "")).status);
        return {{ out, del }};
    """)
    assert got["del"] == [404] * len(ODD_IDS), f"the fixture's DELETE answers these ids with 404: {got['del']}"
    wrong = [(i, s) for i, s, _ in got["out"] if s != 404]
    assert not wrong, f"PATCH /api/comments/<id> should be a 404 for ids DELETE does not know, as for DELETE: {wrong}"
    assert got["out"][-1][2] == "Same heer on Firefox", "comment 1 should be unchanged"


def test_other_routes_unchanged(js):
    got = run(js, """
        return [await send("PUT", "/api/comments/1", "dave", "{}"), await send("DELETE", "/api/comments/2", "ann", ""),
                await send("GET", "/api/issues/1/comments", null, ""), await send("GET", "/api/issues/1", null, "")];
    """)
    put, deleted, listed, issue = got
    assert put["status"] == 405, f"PUT stays a 405: {put}"
    assert deleted["status"] == 204, f"a maintainer still deletes a comment: {deleted}"
    assert [c["id"] for c in listed["body"]] == [1], listed
    assert issue["status"] == 200 and issue["body"]["comments"] == 1, issue
