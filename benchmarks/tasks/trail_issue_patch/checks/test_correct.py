import json

import pytest
from conftest import MAKE_WORLD, WORLD


def run(js, body):
    return js("src/app.js", WORLD + body)


def patch(js, who, changes, issue=1):
    got = run(js, f"""
        const before = stored({issue});
        const r = await send("PATCH", "/api/issues/{issue}", {json.dumps(who)}, {json.dumps(changes)});
        return {{ r, before, after: stored({issue}), now: now() }};
    """)
    return got["r"], got["before"], got["after"], got["now"]


def test_reporter_edits_title_and_body(js):
    r, before, after, now = patch(js, "bob", {"title": "  Login button is misaligned  ", "body": "on **mobile** only"})
    assert r["status"] == 200, f"the reporter's PATCH of title and body should be 200: {r}"
    assert r["body"]["title"] == "Login button is misaligned" and r["body"]["body"] == "on **mobile** only", r["body"]
    assert r["body"]["updatedAt"] == now, f"updatedAt should be the time of the change ({now}): {r['body']}"
    assert r["body"]["ref"] == "WEB-1" and r["body"]["author"] == "bob" and r["body"]["labels"] == ["bug"], r["body"]
    assert after["title"] == "Login button is misaligned" and after["status"] == "open", after


def test_answer_is_what_get_shows(js):
    got = run(js, """
        const r = await send("PATCH", "/api/issues/1", "ann", { priority: "high", assigneeId: 2 });
        const g = await send("GET", "/api/issues/1", null, "");
        return [r, g];
    """)
    patched, fetched = got
    assert patched["status"] == 200 and patched["body"] == fetched["body"], (
        f"the PATCH answer should be the issue as GET /api/issues/1 shows it: {patched['body']} vs {fetched['body']}")
    assert fetched["body"]["priority"] == "high" and fetched["body"]["assignee"] == "bob", fetched["body"]


def test_maintainer_triages(js):
    got = run(js, """
        const out = [];
        out.push(await send("PATCH", "/api/issues/1", "ann", { status: "closed", labels: ["ui", "bug", "ui"] }));
        out.push(now());
        out.push(await send("PATCH", "/api/issues/1", "ann", { status: "open", assigneeId: 4, priority: "urgent" }));
        out.push(await send("PATCH", "/api/issues/1", "ann", { assigneeId: null, title: "Misaligned login" }));
        return out;
    """)
    closed, closed_at, reopened, cleared = got
    assert closed["status"] == 200 and closed["body"]["status"] == "closed", closed
    assert closed["body"]["closedAt"] == closed_at, f"closing should set closedAt to the time of the change: {closed['body']}"
    assert closed["body"]["labels"] == ["ui", "bug"], f"labels are checked as when opening (duplicates dropped): {closed['body']}"
    assert reopened["status"] == 200 and reopened["body"]["status"] == "open" and reopened["body"]["closedAt"] is None, (
        f"reopening should clear closedAt: {reopened['body']}")
    assert reopened["body"]["assignee"] == "dave" and reopened["body"]["priority"] == "urgent", reopened["body"]
    assert cleared["status"] == 200 and cleared["body"]["assignee"] is None and cleared["body"]["title"] == "Misaligned login", cleared


def test_closing_a_closed_issue_keeps_closed_at(js):
    got = run(js, """
        await send("POST", "/api/issues/1/close", "ann", "");
        const first = stored(1).closedAt;
        const r = await send("PATCH", "/api/issues/1", "ann", { status: "closed", priority: "low" });
        return { first, r };
    """)
    assert got["r"]["status"] == 200 and got["r"]["body"]["closedAt"] == got["first"], (
        f"an issue that is already closed keeps its closedAt: {got}")


REFUSED = [
    ("dave", {"title": "x"}, 403),
    ("dave", {"body": "x"}, 403),
    ("bob", {"status": "closed"}, 403),
    ("bob", {"title": "New title", "status": "closed"}, 403),
    ("bob", {"priority": "urgent"}, 403),
    ("bob", {"labels": []}, 403),
    ("bob", {"assigneeId": 2}, 403),
    (None, {"title": "x"}, 401),
    ("it_not_a_token", {"title": "x"}, 401),
    ("bob", {"authorId": 4}, 400),
    ("ann", {"authorId": 4}, 400),
    ("ann", {"id": 7}, 400),
    ("ann", {"title": "ok", "createdAt": "2020-01-01T00:00:00.000Z"}, 400),
    ("ann", {"title": "ok", "votes": 3}, 400),
    ("bob", {"title": ""}, 400),
    ("bob", {"title": "   "}, 400),
    ("bob", {"title": "x" * 201}, 400),
    ("bob", {"title": 5}, 400),
    ("bob", {"body": ["x"]}, 400),
    ("ann", {"labels": ["nope"]}, 400),
    ("ann", {"labels": "bug"}, 400),
    ("ann", {"priority": "asap"}, 400),
    ("ann", {"status": "done"}, 400),
    ("ann", {"status": "closed", "assigneeId": 99}, 400),
    ("ann", {"assigneeId": "2"}, 400),
    ("ann", {"assigneeId": 0}, 400),
]
MALFORMED = [("[1]", 400), ("{oops", 400), ("null", 400)]


@pytest.fixture(scope="module")
def refused(js_batch):
    """Every refused request of REFUSED and MALFORMED, each against a fresh world, in one node run."""
    cases = [[who, changes] for who, changes, _ in REFUSED] + [["ann", body] for body, _ in MALFORMED]
    return js_batch("src/app.js", MAKE_WORLD + f"""
        const out = [];
        for (const [who, changes] of {json.dumps(cases)}) {{
            const w = makeWorld();
            const before = w.stored(1);
            const r = await w.send("PATCH", "/api/issues/1", who, changes);
            out.push({{ r, before, after: w.stored(1) }});
        }}
        return out;
    """, timeout=60)


@pytest.mark.parametrize("case", range(len(REFUSED)),
                         ids=[f"{who}-{json.dumps(changes)}-{status}" for who, changes, status in REFUSED])
def test_refused_requests_change_nothing(refused, case):
    who, changes, status = REFUSED[case]
    r, before, after = refused[case]["r"], refused[case]["before"], refused[case]["after"]
    assert r["status"] == status, f"PATCH /api/issues/1 by {who} with {changes} should be a {status}, got {r['status']} {r['body']!r}"
    assert isinstance(r["body"], dict) and "error" in r["body"], f"the usual {{\"error\": ...}} body: {r['body']!r}"
    assert after == before, f"a refused PATCH changed the issue: {before} -> {after}"


@pytest.mark.parametrize("case", range(len(MALFORMED)), ids=[b for b, _ in MALFORMED])
def test_malformed_bodies(refused, case):
    body, status = MALFORMED[case]
    got = refused[len(REFUSED) + case]
    assert got["r"]["status"] == status and got["after"] == got["before"], f"PATCH with the body {body!r}: {got['r']}"


def test_unknown_issue_is_404(js):
    got = run(js, """
        return [await send("PATCH", "/api/issues/99", "ann", { title: "x" }),
                await send("PATCH", "/api/issues/abc", "ann", { title: "x" })];
    """)
    assert [g["status"] for g in got] == [404, 404], got


def test_other_projects_maintainer_is_not_a_maintainer_here(js):
    r, before, after, _ = patch(js, "dave", {"title": "Disk is full"}, issue=2)
    assert r["status"] == 200 and after["title"] == "Disk is full", f"dave reported OPS-1 and may edit its title: {r}"
    r, before, after, _ = patch(js, "cat", {"status": "closed"}, issue=2)
    assert r["status"] == 200 and after["status"] == "closed", f"cat maintains OPS and may close OPS-1: {r}"


def test_other_routes_unchanged(js):
    got = run(js, """
        return [await send("POST", "/api/issues/1/close", "bob", ""), await send("PUT", "/api/issues/1", "ann", "{}"),
                await send("GET", "/api/issues/1", null, "")];
    """)
    assert got[0]["status"] == 200 and got[0]["body"]["status"] == "closed", got[0]
    assert got[1]["status"] == 405, f"PUT stays a 405: {got[1]}"
    assert got[2]["status"] == 200, got[2]
