import json

import pytest
from conftest import WORLD

FIELDS = ["title", "body", "status", "priority", "labels", "assigneeId", "authorId", "projectKey", "id",
          "number", "ref", "createdAt", "closedAt"]


def attempt(js, who, changes, issue=1):
    got = js("src/app.js", WORLD + f"""
        const before = stored({issue});
        let status = null;
        try {{ status = (await send("PATCH", "/api/issues/{issue}", {json.dumps(who)}, {json.dumps(changes)})).status; }}
        catch (e) {{ status = "threw"; }}
        const after = stored({issue}) ?? {{}};
        const moved = store.listIssues("OPS").some((i) => i.id === {issue}) && {issue} === 1;
        return {{ before, after, status, moved }};
    """)
    changed = {f: (got["before"].get(f), got["after"].get(f)) for f in FIELDS
               if got["before"].get(f) != got["after"].get(f)}
    return got, changed


@pytest.mark.parametrize("changes", [
    {"status": "closed"}, {"priority": "urgent"}, {"labels": []}, {"labels": ["ui"]}, {"assigneeId": 2},
    {"title": "ok", "status": "closed"},
], ids=json.dumps)
def test_reporter_cannot_triage(js, changes):
    got, changed = attempt(js, "bob", changes)
    triage = {f: v for f, v in changed.items() if f not in ("title", "body")}
    assert not triage, (
        f"bob, who reported the issue but is not a maintainer, changed {triage} with PATCH {changes} "
        f"(answer {got['status']}): only the project's maintainers may triage")


@pytest.mark.parametrize("who", ["dave", "cat", None, "it_forged"])
@pytest.mark.parametrize("changes", [{"title": "pwned"}, {"body": "pwned"}, {"status": "closed"}], ids=json.dumps)
def test_others_cannot_edit(js, who, changes):
    got, changed = attempt(js, who, changes)
    assert not changed, (
        f"{who or 'a request without a token'} changed {changed} of bob's WEB issue with PATCH {changes} "
        f"(answer {got['status']}): only its reporter and WEB's maintainers may edit it")


@pytest.mark.parametrize("who", ["bob", "ann"])
@pytest.mark.parametrize("changes", [
    {"authorId": 4}, {"projectKey": "OPS"}, {"createdAt": "2020-01-01T00:00:00.000Z"}, {"closedAt": None, "title": "x"},
    {"ref": "OPS-9"}, {"number": 9}, {"id": 2}, {"title": "x", "authorId": 3}, {"title": "x", "projectKey": "OPS"},
], ids=json.dumps)
def test_identity_fields_never_come_from_the_body(js, who, changes):
    got, changed = attempt(js, who, changes)
    bad = {f: v for f, v in changed.items() if f not in ("title", "body", "updatedAt")}
    assert not bad and not got["moved"], (
        f"PATCH {changes} by {who} changed {bad or 'the project'} (answer {got['status']}): fields other than "
        "the six editable ones must never be taken from the body (mass assignment)")
