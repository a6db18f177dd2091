import json

import pytest

# ann (1), bob (2), the admin root (3); rooms Ada (4), Boole (5, 07:00-20:00), Curie (6).
# BOOKINGS are stored in this order (ids 7, 8, ...): (user, room, start, cancelled).
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const world = (logins, bookings) => {
  const store = new Store({ clock: () => new Date("2024-03-01T08:00:00Z") });
  for (const login of logins) store.addUser({ login, token: `${login}-token`, role: login === "root" ? "admin" : "member" });
  store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00" });
  store.addRoom({ name: "Boole", capacity: 12, opens: "07:00", closes: "20:00" });
  store.addRoom({ name: "Curie", capacity: 4, opens: "08:00", closes: "18:00" });
  for (const [userId, roomId, start, cancel] of bookings) {
    const end = start.slice(0, 11) + String(Number(start.slice(11, 13)) + 1).padStart(2, "0") + start.slice(13);
    const b = store.addBooking(userId, { roomId, title: "Sync", start, end });
    if (cancel) store.updateBooking(b.id, { status: "cancelled" });
  }
  const app = createApp({ store });
  const call = async (url, token) => {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const r = await app.handle({ method: "GET", url, headers, body: "" });
    let parsed = r.body;
    try { parsed = JSON.parse(r.body); } catch {}
    return { status: r.status, body: parsed };
  };
  return { store, call };
};
"""

LOGINS = ["ann", "bob", "root"]
BOOKINGS = [
    (1, 4, "2024-03-04T09:00", False),  # 7 ann Ada
    (2, 4, "2024-03-05T09:00", False),  # 8 bob Ada
    (1, 5, "2024-03-05T09:00", False),  # 9 ann Boole (same start as 8: by id)
    (3, 6, "2024-03-06T10:00", False),  # 10 root Curie
    (1, 6, "2024-03-08T08:00", False),  # 11 ann Curie
    (2, 5, "2024-03-08T12:00", False),  # 12 bob Boole
    (1, 4, "2024-03-05T12:00", True),  # 13 ann Ada, cancelled
    (2, 6, "2024-03-11T09:00", False),  # 14 bob Curie
    (1, 4, "2024-03-11T17:00", False),  # 15 ann Ada
    (1, 5, "2024-03-03T19:00", False),  # 16 ann Boole
]

# (query, who asks, the ids expected in order)
FOUND = [
    ("", "root", [16, 7, 8, 9, 10, 11, 12, 14, 15]),
    ("?user=ann", "root", [16, 7, 9, 11, 15]),
    ("?user=bob,ann", "root", [16, 7, 8, 9, 11, 12, 14, 15]),
    ("?user=ghost", "root", []),
    ("?user=ann,ghost", "root", [16, 7, 9, 11, 15]),
    ("?user=ANN", "root", []),
    ("?room=5", "root", [16, 9, 12]),
    ("?room=4,6", "root", [7, 8, 10, 11, 14, 15]),
    ("?room=99", "root", []),
    ("?room=4,99", "root", [7, 8, 15]),
    ("?from=2024-03-05", "root", [8, 9, 10, 11, 12, 14, 15]),
    ("?to=2024-03-05", "root", [16, 7, 8, 9]),
    ("?from=2024-03-05&to=2024-03-05", "root", [8, 9]),
    ("?from=2024-03-04&to=2024-03-11", "root", [7, 8, 9, 10, 11, 12, 14, 15]),
    ("?from=2024-03-04&to=2024-03-08&room=5&user=bob", "root", [12]),
    ("?room=6&user=root", "root", [10]),
    ("", "ann", [16, 7, 9, 11, 15]),
    ("?user=ann", "ann", [16, 7, 9, 11, 15]),
    ("?user=ann,ann", "ann", [16, 7, 9, 11, 15]),
    ("?room=4", "ann", [7, 15]),
    ("?room=5,6&from=2024-03-05", "ann", [9, 11]),
    ("?to=2024-03-04", "ann", [16, 7]),
    ("", "bob", [8, 12, 14]),
    ("?from=2024-03-12", "bob", []),
]
REFUSED = ["?user=bob", "?user=bob,ann", "?user=ann,bob", "?user=ann,ann,bob", "?user=ghost", "?user=ann,ghost",
           "?user=ANN", "?user=root", "?user=ann,root&room=4"]
BAD = ["?room=", "?room=4,,5", "?room=x", "?room=0", "?room=-1", "?room=2.5", "?room=4,", "?user=", "?user=ann,",
       "?user=,ann", "?from=2024-02-30", "?to=2024-3-5", "?from=", "?to=tomorrow", "?from=2024-03-06&to=2024-03-05"]


@pytest.fixture(scope="module")
def answers(ts_batch):
    asks = [(q, who) for q, who, _ in FOUND] + [(q, "ann") for q in REFUSED] + [(q, w) for q in BAD for w in ("ann", "root")]
    return ts_batch("src/app.ts", WORLD + f"""
        const w = world({json.dumps(LOGINS)}, {json.dumps(BOOKINGS)});
        const out = {{}};
        for (const [query, who] of {json.dumps(asks)}) {{
          const r = await attemptAsync(() => w.call(`/api/bookings${{query}}`, `${{who}}-token`));
          out[`${{who}} ${{query}}`] = r.ok ? r.value : {{ status: 0, body: r.message }};
        }}
        out.anonymous = await w.call("/api/bookings", null);
        out.stored = w.store.listBookings();
        return out;
    """)


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


def is_error(r):
    return isinstance(r["body"], dict) and isinstance(r["body"].get("error"), str)


@pytest.mark.parametrize("query, who, ids", FOUND, ids=[f"{w}{q or '-'}" for q, w, _ in FOUND])
def test_the_matching_bookings(answers, query, who, ids):
    r = answers[f"{who} {query}"]
    stored = {b["id"]: b for b in answers["stored"]}
    assert r["status"] == 200 and isinstance(r["body"], list), (
        f"{who}'s GET /api/bookings{query} should answer 200 with a list, got {r['status']} {r['body']!r}")
    got = [b.get("id") if isinstance(b, dict) else b for b in r["body"]]
    assert got == ids, (
        f"{who}'s GET /api/bookings{query} should list the active bookings {ids} (in start order, then by id), "
        f"got {got}")
    for b in r["body"]:
        assert b == stored[b["id"]], f"each booking is listed whole, as stored: expected {stored[b['id']]}, got {b}"


@pytest.mark.parametrize("query", REFUSED)
def test_a_member_names_only_themselves(answers, query):
    r = answers[f"ann {query}"]
    assert r["status"] == 403 and is_error(r), (
        f"ann (a member) names someone but herself in GET /api/bookings{query}: a 403 with {{\"error\": \"...\"}}, "
        f"got {r['status']} {r['body']!r}")


@pytest.mark.parametrize("who", ["ann", "root"])
@pytest.mark.parametrize("query", BAD)
def test_bad_values(answers, query, who):
    r = answers[f"{who} {query}"]
    assert r["status"] == 400 and is_error(r), (
        f"GET /api/bookings{query} ({who}) has a bad value: a 400 with {{\"error\": \"...\"}}, got {r['status']} {r['body']!r}")


def test_without_a_token(answers):
    assert answers["anonymous"]["status"] == 401, f"without a token: a 401, got {answers['anonymous']}"


def test_days_run_from_midnight_to_midnight(ts):
    # bookings 7-10 at 23:00 the day before, 00:00 and 23:59 of 2024-03-05, 00:00 the day after;
    # room 1 is a valid id that no room has
    got = ts("src/app.ts", WORLD + """
        const w = world(["ann", "bob", "root"], [[1, 4, "2024-03-04T23:00", false], [1, 4, "2024-03-05T00:00", false],
                                                 [1, 4, "2024-03-05T23:59", false], [1, 4, "2024-03-06T00:00", false]]);
        const ids = async (q) => {
          const r = await w.call(`/api/bookings${q}`, "root-token");
          return r.status === 200 && Array.isArray(r.body) ? r.body.map((b) => b.id) : r.status;
        };
        return [await ids("?from=2024-03-05&to=2024-03-05"), await ids("?room=1"), await ids("?room=1,4&to=2024-03-04")];
    """)
    assert got[0] == [8, 9], (
        f"from=2024-03-05&to=2024-03-05 finds the bookings starting at 00:00 and 23:59 that day, not the ones at 23:00 "
        f"the day before or 00:00 the day after: [8, 9], got {got[0]}")
    assert got[1:] == [[], [7]], (
        f"room=1 is a whole number greater than 0 that no room has: it matches nothing (a 200 with []), and room=1,4 "
        f"with to=2024-03-04 finds [7]; got {got[1:]}")
