import json

import pytest
from conftest import MAKE_WORLD

FIELDS = ["id", "issueId", "authorId", "body", "createdAt", "editedAt"]


def attempts(js_batch, cases):
    """[(who, comment id, body)] -> [(status, {comment id: {field: (before, after)}})], each
    against a fresh world, in one node run."""
    got = js_batch("src/app.js", MAKE_WORLD + f"""
        const out = [];
        for (const [who, cid, body] of {json.dumps(cases)}) {{
            const w = makeWorld();
            const before = [1, 2, 3].map((i) => w.stored(i) ?? {{}});
            let status = null;
            try {{ status = (await w.send("PATCH", `/api/comments/${{cid}}`, who, body)).status; }}
            catch (e) {{ status = "threw"; }}
            out.push({{ status, before, after: [1, 2, 3].map((i) => w.stored(i) ?? {{}}) }});
        }}
        return out;
    """, timeout=60)
    results = []
    for g in got:
        changed = {}
        for n, (b, a) in enumerate(zip(g["before"], g["after"]), start=1):
            diff = {f: (b.get(f), a.get(f)) for f in FIELDS if b.get(f) != a.get(f)}
            if diff:
                changed[n] = diff
        results.append((g["status"], changed))
    return results


# Requests by anyone but the author, each of which would change the comment: on dave's comment 1
# a maintainer of WEB, the reporter, another project's maintainer, no token, a forged one;
# on ann's comment 3 (OPS-1), its reporter, its project's maintainer and a stranger.
OTHERS = [(who, cid, body) for body in ({"body": "I agree with everything ann says"}, {"body": "pwned", "authorId": 1})
          for who, cid in (("ann", 1), ("bob", 1), ("cat", 1), (None, 1), ("it_forged", 1),
                           ("dave", 3), ("cat", 3), ("bob", 3))]
# The author himself, sending fields that are not the body: each value differs from the stored one.
FORGED = [("dave", 1, body) for body in (
    {"body": "typo fixed", "authorId": 2}, {"authorId": 2}, {"body": "typo fixed", "issueId": 2},
    {"body": "typo fixed", "id": 3}, {"body": "typo fixed", "createdAt": "2020-01-01T00:00:00.000Z"},
)]


@pytest.fixture(scope="module")
def outcomes(js_batch):
    results = attempts(js_batch, OTHERS + FORGED)
    return {"others": results[:len(OTHERS)], "forged": results[len(OTHERS):]}


@pytest.mark.parametrize("case", range(len(OTHERS)), ids=[f"{w}-{c}-{json.dumps(b)}" for w, c, b in OTHERS])
def test_nobody_else_rewrites_a_comment(outcomes, case):
    who, cid, body = OTHERS[case]
    status, changed = outcomes["others"][case]
    assert not changed, (
        f"{who or 'a request without a token'} changed {changed} with PATCH /api/comments/{cid} {body} "
        f"(answer {status}): only the comment's author may edit it")


@pytest.mark.parametrize("case", range(len(FORGED)), ids=[json.dumps(b) for _, _, b in FORGED])
def test_only_the_body_ever_comes_from_the_request(outcomes, case):
    who, cid, body = FORGED[case]
    status, changed = outcomes["forged"][case]
    bad = {n: {f: v for f, v in diff.items() if not (n == cid and f in ("body", "editedAt"))}
           for n, diff in changed.items()}
    bad = {n: d for n, d in bad.items() if d}
    assert not bad, (
        f"PATCH /api/comments/{cid} {body} by its author changed {bad} (answer {status}): no field but the "
        "body may be taken from the request (mass assignment: a comment moved or put in another's name)")
