import json

import pytest

PRELUDE = """
const setAccess = pick('setAccess');
const ForbiddenError = pick('ForbiddenError');
if (typeof setAccess !== "function") throw new Error("sharing.js does not export a function setAccess");
const fresh = () => ({ id: 7, owner: "ann", members: { bob: "editor", eve: "editor", cy: "viewer" } });
const run = ([actor, user, role]) => {
  const doc = fresh();
  const r = attempt(() => setAccess(doc, actor, user, role));
  return { ok: r.ok, name: r.name, forbidden: !r.ok && typeof ForbiddenError === "function" && r.error instanceof ForbiddenError,
           typeError: !r.ok && r.error instanceof TypeError, isError: !r.ok && r.error instanceof Error,
           members: doc.members, owner: doc.owner };
};
"""

# attempt() in conftest keeps only the name and message: keep the thrown object too.
SETUP = """
globalThis.__attempt = (fn) => { try { return { ok: true, value: fn() }; } catch (e) { return { ok: false, name: e?.name, error: e }; } };
"""


def run_all(js, calls):
    body = PRELUDE.replace("attempt(", "__attempt(") + f"return {json.dumps(calls)}.map(run);"
    return js("sharing.js", body, setup=SETUP)


BASE = {"bob": "editor", "eve": "editor", "cy": "viewer"}

ALLOWED = [
    (["ann", "dan", "editor"], {**BASE, "dan": "editor"}),
    (["ann", "dan", "viewer"], {**BASE, "dan": "viewer"}),
    (["ann", "bob", "viewer"], {**BASE, "bob": "viewer"}),
    (["ann", "cy", "editor"], {**BASE, "cy": "editor"}),
    (["ann", "cy", None], {"bob": "editor", "eve": "editor"}),
    (["ann", "bob", None], {"eve": "editor", "cy": "viewer"}),
    (["bob", "dan", "viewer"], {**BASE, "dan": "viewer"}),
    (["bob", "bob", None], {"eve": "editor", "cy": "viewer"}),
]


@pytest.mark.parametrize(("call", "members"), ALLOWED, ids=[" ".join(map(str, c)) for c, _ in ALLOWED])
def test_allowed_changes_are_made(js, call, members):
    got = run_all(js, [call])[0]
    assert got["ok"], f"setAccess(doc, {', '.join(map(repr, call))}) threw {got['name']}: the rules allow it"
    assert got["members"] == members and got["owner"] == "ann", (
        f"setAccess(doc, {', '.join(map(repr, call))}) left members {got['members']}, expected {members}")


FORBIDDEN = [
    ["bob", "dan", "editor"],  # an editor gives editor
    ["bob", "cy", "editor"],  # an editor promotes a viewer
    ["bob", "eve", "viewer"],  # an editor demotes another editor
    ["bob", "cy", None],  # an editor removes someone else
    ["bob", "bob", "viewer"],  # an editor changes their own role
    ["bob", "ann", "viewer"],  # anyone gives the owner a member role
    ["ann", "ann", "viewer"],  # even the owner
    ["cy", "dan", "viewer"],  # a viewer shares
    ["cy", "cy", None],  # a viewer changes their own access
    ["zed", "zed", "viewer"],  # no access at all
    ["zed", "dan", "editor"],
]


def test_forbidden_changes_throw_forbidden_error(js):
    got = run_all(js, FORBIDDEN)
    wrong = [(call, r["name"] if not r["ok"] else "nothing") for call, r in zip(FORBIDDEN, got) if not r["forbidden"]]
    assert not wrong, (
        "these calls (actor, user, role) should throw a ForbiddenError (exported by sharing.js); "
        f"they threw or returned: {wrong}")
    assert all(r["isError"] for r in got), "ForbiddenError should be a subclass of Error"


BAD_ROLES = [["ann", "dan", "owner"], ["ann", "dan", "admin"], ["ann", "dan", "Editor"], ["ann", "bob", ""],
             ["zed", "dan", "owner"], ["cy", "cy", "admin"], ["bob", "dan", 1]]


def test_unknown_role_throws_type_error_whoever_asks(js):
    got = run_all(js, BAD_ROLES)
    wrong = [(call, r["name"] if not r["ok"] else "nothing") for call, r in zip(BAD_ROLES, got) if not r["typeError"]]
    assert not wrong, f"a role other than 'editor', 'viewer' or null should throw a TypeError, whoever asks: {wrong}"
