"""GET /api/rooms?min_capacity=N: the filter, its value checked, today's order and fields."""

import json

import pytest

# Five rooms in this store order, with their capacities; ann is a member, root an admin.
ROOMS = [("Ada", 6), ("Boole", 12), ("Curie", 4), ("Dijkstra", 8), ("Euler", 20)]

WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const store = new Store({ clock: () => new Date("2024-03-04T08:00:00Z") });
store.addUser({ login: "ann", token: "ann-token" });
store.addUser({ login: "root", role: "admin", token: "admin-token" });
for (const [name, capacity] of ROOMS) store.addRoom({ name, capacity, opens: "08:00", closes: "18:00" });
const app = createApp({ store });
const call = async (method, url, token = "ann-token", body) => {
  const r = await app.handle({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {},
                               body: body === undefined ? "" : JSON.stringify(body) });
  let parsed = r.body;
  try { parsed = JSON.parse(r.body); } catch {}
  return { status: r.status, body: parsed };
};
""".replace("ROOMS", json.dumps(ROOMS))

# query -> the names listed, in store order
FILTERS = {
    "": ["Ada", "Boole", "Curie", "Dijkstra", "Euler"],
    "?min_capacity=1": ["Ada", "Boole", "Curie", "Dijkstra", "Euler"],
    "?min_capacity=8": ["Boole", "Dijkstra", "Euler"],
    "?min_capacity=6": ["Ada", "Boole", "Dijkstra", "Euler"],
    "?min_capacity=7": ["Boole", "Dijkstra", "Euler"],
    "?min_capacity=20": ["Euler"],
    "?min_capacity=21": [],
    "?min_capacity=08": ["Boole", "Dijkstra", "Euler"],
    "?min_capacity=5&other=1": ["Ada", "Boole", "Dijkstra", "Euler"],
    "?min_capacity=99999999999999999999": [],
}

INVALID = ["0", "00", "-3", "2.5", "ten", "1e1", "", "%208", "8%20", "%2B8", "0x8", "8a", "Infinity", "NaN"]


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


@pytest.fixture(scope="module")
def listed(ts_batch):
    return ts_batch(
        "src/app.ts",
        WORLD
        + f"""
        const out = {{}};
        for (const q of {json.dumps(list(FILTERS) + ["?min_capacity=" + v for v in INVALID])}) {{
          out[q] = await call("GET", "/api/rooms" + q);
        }}
        return out;
    """,
    )


@pytest.mark.parametrize("query", list(FILTERS))
def test_min_capacity_lists_the_rooms_big_enough(listed, query):
    got = listed[query]
    assert got["status"] == 200, f"GET /api/rooms{query} answered {got['status']}: {got['body']!r}"
    assert isinstance(got["body"], list), (
        f"GET /api/rooms{query} should answer a JSON array, got {got['body']!r}"
    )
    names = [room.get("name") for room in got["body"]]
    assert names == FILTERS[query], (
        f"GET /api/rooms{query} over rooms {ROOMS} (name, capacity) listed {names}, expected {FILTERS[query]} "
        "(capacity at least the value, in today's order)"
    )


@pytest.mark.parametrize("value", INVALID)
def test_a_value_that_is_not_a_whole_number_of_at_least_1_is_a_400(listed, value):
    got = listed["?min_capacity=" + value]
    assert got["status"] == 400, f"GET /api/rooms?min_capacity={value} should be a 400, got {got['status']}"
    assert isinstance(got["body"], dict) and isinstance(got["body"].get("error"), str), (
        f'a 400 should answer {{"error": "..."}}, got {got["body"]!r}'
    )


def test_the_listed_rooms_keep_their_fields(listed):
    for query in ("", "?min_capacity=8"):
        for room in listed[query]["body"]:
            expected = dict(zip(("name", "capacity"), next(r for r in ROOMS if r[0] == room.get("name"))))
            assert {k: room.get(k) for k in ("name", "capacity")} == expected, (
                f"GET /api/rooms{query} listed {room}"
            )
            assert room.get("opens") == "08:00" and room.get("closes") == "18:00", (
                f"GET /api/rooms{query} listed {room}: today's fields are id, name, capacity, opens, closes"
            )
            assert isinstance(room.get("id"), int), f"GET /api/rooms{query} listed {room} without its id"
