import json

import pytest

# Each call would change the document if it were carried out (a role that differs from the
# stored one, an entry that exists, a user who is not yet there).
ATTEMPTS = [
    ["bob", "dan", "editor"],
    ["bob", "cy", "editor"],
    ["bob", "eve", "viewer"],
    ["bob", "eve", None],
    ["bob", "cy", None],
    ["bob", "ann", "viewer"],
    ["bob", "ann", "editor"],
    ["cy", "dan", "viewer"],
    ["cy", "cy", "editor"],
    ["cy", "bob", None],
    ["zed", "zed", "viewer"],
    ["zed", "dan", "editor"],
    ["zed", "bob", None],
    ["constructor", "dan", "viewer"],
    ["__proto__", "dan", "editor"],
    ["toString", "toString", "editor"],
]


@pytest.fixture(scope="module")
def results(js_batch):
    return js_batch("sharing.js", f"""
        const setAccess = pick('setAccess');
        const snap = (doc) => JSON.stringify({{ id: doc.id, owner: doc.owner,
            members: Object.fromEntries(Object.entries(doc.members).sort()) }});
        return {json.dumps(ATTEMPTS)}.map(([actor, user, role]) => {{
            const doc = {{ id: 7, owner: "ann", members: {{ bob: "editor", eve: "editor", cy: "viewer" }} }};
            const before = snap(doc);
            attempt(() => setAccess(doc, actor, user, role));
            return {{ before, after: snap(doc) }};
        }});
    """)


@pytest.mark.parametrize("i", range(len(ATTEMPTS)), ids=[" ".join(map(str, a)) for a in ATTEMPTS])
def test_forbidden_request_changes_nothing(results, i):
    actor, user, role = ATTEMPTS[i]
    got = results[i]
    assert got["after"] == got["before"], (
        f"{actor!r} set {user!r}'s access to {role!r}, which the rules forbid: the document went from "
        f"{got['before']} to {got['after']} (check the actor's rights before changing anything)")
