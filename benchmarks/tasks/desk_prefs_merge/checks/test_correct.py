import json

import pytest

# ann (token ann-token, id 1) and bob (bob-token, id 2), each with stored preferences.
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const world = (annPrefs, bobPrefs = { theme: "light", calendar: { weekStart: "sunday" } }) => {
  const store = new Store({ clock: () => new Date("2024-03-04T08:00:00Z") });
  const ann = store.addUser({ login: "ann", token: "ann-token" });
  const bob = store.addUser({ login: "bob", token: "bob-token" });
  store.setPreferences(ann.id, annPrefs);
  store.setPreferences(bob.id, bobPrefs);
  const app = createApp({ store });
  const patch = async (text, token = "ann-token") => {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const r = await app.handle({ method: "PATCH", url: "/api/me/preferences", headers, body: text });
    let body = r.body;
    try { body = JSON.parse(r.body); } catch {}
    return { status: r.status, body, ann: store.getUser(ann.id).preferences, bob: store.getUser(bob.id).preferences };
  };
  return { store, patch };
};
"""

STORED = {"theme": "dark", "calendar": {"weekStart": "monday", "hours": {"from": 8, "to": 18}}, "pins": [1, 2], "zoom": 3}

# (patch, the preferences after it), each applied to STORED
MERGES = {
    "nested": ({"calendar": {"hours": {"to": 17}}, "lang": "de"},
               {**STORED, "calendar": {"weekStart": "monday", "hours": {"from": 8, "to": 17}}, "lang": "de"}),
    "array-replaced": ({"pins": [3]}, {**STORED, "pins": [3]}),
    "object-over-scalar": ({"theme": {"name": "dark", "contrast": True}},
                           {**STORED, "theme": {"name": "dark", "contrast": True}}),
    "scalar-over-object": ({"calendar": "off"}, {**STORED, "calendar": "off"}),
    "array-over-object": ({"calendar": ["a"]}, {**STORED, "calendar": ["a"]}),
    "object-over-array": ({"pins": {"first": 1}}, {**STORED, "pins": {"first": 1}}),
    "falsy-values": ({"theme": "", "zoom": 0, "calendar": {"hours": False}},
                     {**STORED, "theme": "", "zoom": 0, "calendar": {"weekStart": "monday", "hours": False}}),
    "null-deletes": ({"theme": None, "calendar": {"hours": {"from": None}}},
                     {"calendar": {"weekStart": "monday", "hours": {"to": 18}}, "pins": [1, 2], "zoom": 3}),
    "null-of-missing-key": ({"nothing": None, "calendar": {"nothing": None}}, STORED),
    "null-never-stored": ({"fresh": {"x": None, "y": 1, "z": {"w": None}}, "pins": None},
                          {**{k: v for k, v in STORED.items() if k != "pins"}, "fresh": {"y": 1, "z": {}}}),
    "empty": ({}, STORED),
    "nested-array-of-objects": ({"calendar": {"views": [{"kind": "week"}]}},
                                {**STORED, "calendar": {**STORED["calendar"], "views": [{"kind": "week"}]}}),
}


@pytest.fixture(scope="module")
def merged(ts_batch):
    cases = {name: patch for name, (patch, _) in MERGES.items()}
    return ts_batch("src/app.ts", WORLD + f"""
        const mergePreferences = (await loadOther("src/preferences.ts")).mergePreferences;
        const out = {{}};
        for (const [name, patch] of Object.entries({json.dumps(cases)})) {{
          const stored = {json.dumps(STORED)};
          const r = await world(stored).patch(JSON.stringify(patch));
          const current = {json.dumps(STORED)};
          const arg = JSON.parse(JSON.stringify(patch));
          const direct = attempt(() => mergePreferences(current, arg));
          out[name] = {{ ...r, direct, current, arg, same: direct.ok && direct.value === current }};
        }}
        return out;
    """)


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


@pytest.mark.parametrize("name", list(MERGES))
def test_patch_merges(merged, name):
    patch, expected = MERGES[name]
    got = merged[name]
    assert got["status"] == 200, f"PATCH {json.dumps(patch)} over {json.dumps(STORED)}: expected 200, got {got['status']} {got['body']!r}"
    assert got["body"] == expected, (
        f"PATCH {json.dumps(patch)} over {json.dumps(STORED)} should answer the whole preferences "
        f"{json.dumps(expected)}, got {json.dumps(got['body'])}")
    assert got["ann"] == expected, f"the stored preferences after PATCH {json.dumps(patch)}: {json.dumps(got['ann'])}"
    assert got["bob"] == {"theme": "light", "calendar": {"weekStart": "sunday"}}, f"bob's preferences changed: {got['bob']}"


@pytest.mark.parametrize("name", list(MERGES))
def test_merge_preferences_returns_a_new_object(merged, name):
    patch, expected = MERGES[name]
    got = merged[name]
    assert got["direct"].get("ok"), f"mergePreferences(current, {json.dumps(patch)}) threw: {got['direct']}"
    assert got["direct"]["value"] == expected, (
        f"mergePreferences({json.dumps(STORED)}, {json.dumps(patch)}) should be {json.dumps(expected)}, got {got['direct']['value']}")
    assert not got["same"], "mergePreferences should return a new object, not its first argument"
    assert got["current"] == STORED and got["arg"] == patch, (
        f"mergePreferences modified its arguments: current became {got['current']}, patch {got['arg']}")


BAD_BODIES = ["[]", '[{"theme": "dark"}]', '"dark"', "3", "null", "true", "{theme: dark}", ""]
FORBIDDEN = [
    '{"__proto__": {"admin": true}}', '{"calendar": {"__proto__": {"admin": true}}}', '{"constructor": 1}',
    '{"calendar": {"prototype": "x"}}', '{"theme": "blue", "calendar": {"hours": {"constructor": {"prototype": {}}}}}',
    '{"list": [{"__proto__": {"admin": true}}]}', '{"list": [1, [{"prototype": 2}]]}', '{"prototype": null}',
]


@pytest.mark.parametrize("text", BAD_BODIES + FORBIDDEN)
def test_refused_bodies_are_400_and_change_nothing(ts, text):
    got = ts("src/app.ts", WORLD + f"""
        const w = world({json.dumps(STORED)});
        return await w.patch({json.dumps(text)});
    """)
    assert got["status"] == 400, f"PATCH with the body {text!r} should be a 400, got {got['status']} {got['body']!r}"
    assert isinstance(got["body"], dict) and isinstance(got["body"].get("error"), str), (
        f"a 400 should answer {{\"error\": \"...\"}}, got {got['body']!r}")
    assert got["ann"] == STORED, f"a refused PATCH ({text!r}) changed the stored preferences: {got['ann']}"


def test_a_token_is_needed(ts):
    got = ts("src/app.ts", WORLD + f"""
        const w = world({json.dumps(STORED)});
        return [await w.patch('{{"theme": "x"}}', null), await w.patch('{{"theme": "x"}}', "nobody")];
    """)
    for r in got:
        assert r["status"] == 401, f"PATCH without a valid token should be a 401, got {r['status']}"
        assert r["ann"] == STORED and r["bob"]["theme"] == "light", "a PATCH without a valid token changed preferences"


def test_each_user_patches_their_own(ts):
    got = ts("src/app.ts", WORLD + f"""
        const w = world({json.dumps(STORED)});
        await w.patch('{{"calendar": {{"weekStart": "saturday"}}}}', "bob-token");
        return await w.patch('{{"theme": "blue"}}', "ann-token");
    """)
    assert got["bob"] == {"theme": "light", "calendar": {"weekStart": "saturday"}}, f"bob's PATCH: {got['bob']}"
    assert got["ann"] == {**STORED, "theme": "blue"}, f"ann's PATCH: {got['ann']}"
