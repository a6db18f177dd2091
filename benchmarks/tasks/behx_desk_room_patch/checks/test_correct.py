"""PATCH /api/rooms/:id by an admin: the fields given changed, each checked as on create, a 400
that changes nothing, a 404, the room answered as GET shows it."""

import json

import pytest

# Ada (room 3) 08:00-18:00 seats 6, with a webhook; Boole (room 4). ann (1) a member, root (2) an admin.
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const store = new Store({ clock: () => new Date("2024-03-04T08:00:00Z") });
store.addUser({ login: "ann", token: "ann-token" });
store.addUser({ login: "root", role: "admin", token: "admin-token" });
store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00" });
store.addRoom({ name: "Boole", capacity: 12, opens: "07:00", closes: "20:00" });
store.setWebhook(3, "https://screens.example.com/ada");
const app = createApp({ store });
const call = async (method, url, token, body) => {
  const r = await app.handle({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {},
                               body: body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body) });
  let parsed = r.body;
  try { parsed = JSON.parse(r.body); } catch {}
  return { status: r.status, body: parsed };
};
const room = (id) => store.getRoom(id);
"""

ADA = {"id": 3, "name": "Ada", "capacity": 6, "opens": "08:00", "closes": "18:00"}
SHOWN = ("id", "name", "capacity", "opens", "closes")

# a body an admin sends for Ada -> Ada's fields afterwards
VALID = [
    ({"name": "Lovelace"}, {"name": "Lovelace"}),
    ({"name": "  Ada Lovelace \t"}, {"name": "Ada Lovelace"}),
    ({"capacity": 8}, {"capacity": 8}),
    ({"capacity": 1}, {"capacity": 1}),
    ({"opens": "07:30"}, {"opens": "07:30"}),
    ({"closes": "17:59"}, {"closes": "17:59"}),
    ({"closes": "08:01"}, {"closes": "08:01"}),
    ({"opens": "19:00", "closes": "21:00"}, {"opens": "19:00", "closes": "21:00"}),
    ({"opens": "06:00", "closes": "07:00"}, {"opens": "06:00", "closes": "07:00"}),
    (
        {"name": "Hopper", "capacity": 10, "opens": "09:00", "closes": "17:00"},
        {"name": "Hopper", "capacity": 10, "opens": "09:00", "closes": "17:00"},
    ),
]

# bodies an admin sends for Ada that are a 400 and change nothing
INVALID = [
    "[]",
    '"Ada"',
    "null",
    "42",
    "not json",
    {},
    {"id": 9},
    {"webhook": "https://screens.example.com/x"},
    {"webhook": None},
    {"name": "X", "floor": 2},
    {"name": ""},
    {"name": "   "},
    {"name": 5},
    {"name": None},
    {"capacity": 0},
    {"capacity": -1},
    {"capacity": 2.5},
    {"capacity": "8"},
    {"capacity": None},
    {"opens": "8:00"},
    {"opens": "25:00"},
    {"opens": 800},
    {"opens": None},
    {"opens": ["07:00"]},
    {"closes": {"at": "19:00"}},
    {"closes": "18:60"},
    {"opens": "18:00"},
    {"opens": "19:00"},
    {"closes": "08:00"},
    {"closes": "07:00"},
    {"opens": "10:00", "closes": "10:00"},
    {"opens": "12:00", "closes": "11:00"},
    {"name": "Hopper", "capacity": 0},
    {"capacity": 9, "opens": "20:00"},
    {"name": "Hopper", "id": 3},
]


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


@pytest.fixture(scope="module")
def valid(ts_batch):
    return ts_batch(
        "src/app.ts",
        f"""
        const out = [];
        for (const body of {json.dumps([v[0] for v in VALID])}) {{
          {WORLD}
          const r = await call("PATCH", "/api/rooms/3", "admin-token", body);
          out.push({{ r, after: room(3), other: room(4), get: await call("GET", "/api/rooms/3", "ann-token") }});
        }}
        return out;
    """,
    )


@pytest.mark.parametrize("index", range(len(VALID)), ids=[json.dumps(v[0]) for v in VALID])
def test_an_admin_changes_the_fields_given(valid, index):
    body, changed = VALID[index]
    got = valid[index]
    expected = {**ADA, **changed}
    assert got["r"]["status"] == 200, (
        f"PATCH /api/rooms/3 {json.dumps(body)} as an admin answered {got['r']['status']}: {got['r']['body']!r}"
    )
    stored = {k: got["after"].get(k) for k in SHOWN}
    assert stored == expected, (
        f"after PATCH {json.dumps(body)} Ada is stored as {stored}, expected {expected}"
    )
    answer = got["r"]["body"]
    assert isinstance(answer, dict) and {k: answer.get(k) for k in SHOWN} == expected, (
        f"PATCH {json.dumps(body)} should answer the room as GET /api/rooms/3 shows it ({expected}), got {answer!r}"
    )
    assert {k: got["other"].get(k) for k in ("name", "capacity", "opens", "closes")} == {
        "name": "Boole",
        "capacity": 12,
        "opens": "07:00",
        "closes": "20:00",
    }, "another room changed"


@pytest.fixture(scope="module")
def invalid(ts_batch):
    return ts_batch(
        "src/app.ts",
        f"""
        const out = [];
        for (const body of {json.dumps(INVALID)}) {{
          {WORLD}
          const r = await call("PATCH", "/api/rooms/3", "admin-token", body);
          out.push({{ r, after: room(3) }});
        }}
        return out;
    """,
    )


@pytest.mark.parametrize("index", range(len(INVALID)), ids=[json.dumps(b) for b in INVALID])
def test_a_bad_body_is_a_400_that_changes_nothing(invalid, index):
    body = INVALID[index]
    got = invalid[index]
    sent = body if isinstance(body, str) else json.dumps(body)
    assert got["r"]["status"] == 400, (
        f"PATCH /api/rooms/3 with the body {sent} should be a 400, got {got['r']['status']}"
    )
    assert isinstance(got["r"]["body"], dict) and isinstance(got["r"]["body"].get("error"), str), (
        f'a 400 should answer {{"error": "..."}}, got {got["r"]["body"]!r}'
    )
    stored = {k: got["after"].get(k) for k in SHOWN}
    assert stored == ADA, f"the refused PATCH {sent} changed Ada: {stored}"


def test_an_unknown_room_is_a_404(ts):
    got = ts(
        "src/app.ts",
        WORLD
        + """
        return [await call("PATCH", "/api/rooms/99", "admin-token", { name: "X" }),
                await call("PATCH", "/api/rooms/1", "admin-token", { name: "X" })];
    """,
    )
    for r, what in zip(got, ("room 99", "id 1 (a user, not a room)")):
        assert r["status"] == 404, f"PATCH of {what} should be a 404, got {r['status']}"


def test_the_change_lasts(ts):
    got = ts(
        "src/app.ts",
        WORLD
        + """
        await call("PATCH", "/api/rooms/3", "admin-token", { capacity: 9 });
        await call("PATCH", "/api/rooms/3", "admin-token", { closes: "20:00" });
        return [await call("GET", "/api/rooms/3", "ann-token"), await call("GET", "/api/rooms", "ann-token")];
    """,
    )
    one, listed = got
    assert one["body"].get("capacity") == 9 and one["body"].get("closes") == "20:00", (
        f"two PATCHes (capacity 9, then closes 20:00) should both last: GET /api/rooms/3 says {one['body']!r}"
    )
    assert [r.get("capacity") for r in listed["body"]] == [9, 12], f"GET /api/rooms lists {listed['body']!r}"
