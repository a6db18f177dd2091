import json

import pytest

# Ada (room 4) is open 08:00-18:00, Boole (5) 07:00-20:00; bookings are stored as they are (the
# store takes them without the booking rules), as the old system's imports were.
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const world = (bookings) => {
  const store = new Store({ clock: () => new Date("2024-03-04T08:00:00Z") });
  store.addUser({ login: "ann", token: "ann-token" });
  store.addUser({ login: "bob", token: "bob-token" });
  store.addUser({ login: "root", role: "admin", token: "admin-token" });
  store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00" });
  store.addRoom({ name: "Boole", capacity: 12, opens: "07:00", closes: "20:00" });
  for (const [roomId, start, end, status] of bookings) {
    const b = store.addBooking(1, { roomId, title: "x", start: start.includes("T") ? start : `2024-03-05T${start}`,
                                    end: end.includes("T") ? end : `2024-03-05T${end}` });
    if (status === "cancelled") store.updateBooking(b.id, { status: "cancelled" });
  }
  const app = createApp({ store });
  const get = async (url, token = "ann-token") => {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const r = await app.handle({ method: "GET", url, headers, body: "" });
    let body = r.body;
    try { body = JSON.parse(r.body); } catch {}
    return { status: r.status, body };
  };
  return { store, get };
};
"""

# One untidy day of Ada's: overlapping bookings, one inside another, one touching the next, a
# cancelled one, short gaps, one past closing time, and bookings of other rooms and days.
BUSY = [
    [4, "09:00", "10:00"], [4, "09:30", "09:45"], [4, "10:00", "10:30"], [4, "11:00", "11:30", "cancelled"],
    [4, "12:00", "12:20"], [4, "12:40", "13:00"], [4, "17:30", "18:30"], [5, "13:00", "17:00"],
    [4, "2024-03-06T13:00", "2024-03-06T17:00"], [4, "2024-03-04T08:00", "2024-03-04T18:00"],
]
# Another: one booking from before opening, one inside it, a gap of exactly 30 minutes.
EARLY = [[4, "07:00", "08:30"], [4, "07:30", "08:00"], [4, "09:00", "12:00"], [4, "10:00", "11:00"], [4, "12:30", "17:59"]]


def p(start, end):
    return {"start": f"2024-03-05T{start}", "end": f"2024-03-05T{end}"}


# (bookings, query, the expected free periods)
CASES = {
    "default-30": (BUSY, "date=2024-03-05", [p("08:00", "09:00"), p("10:30", "12:00"), p("13:00", "17:30")]),
    "minutes-20": (BUSY, "date=2024-03-05&minutes=20",
                   [p("08:00", "09:00"), p("10:30", "12:00"), p("12:20", "12:40"), p("13:00", "17:30")]),
    "minutes-10": (BUSY, "date=2024-03-05&minutes=10",
                   [p("08:00", "09:00"), p("10:30", "12:00"), p("12:20", "12:40"), p("13:00", "17:30")]),
    "minutes-1": (BUSY, "date=2024-03-05&minutes=1",
                  [p("08:00", "09:00"), p("10:30", "12:00"), p("12:20", "12:40"), p("13:00", "17:30")]),
    "minutes-60": (BUSY, "date=2024-03-05&minutes=60", [p("08:00", "09:00"), p("10:30", "12:00"), p("13:00", "17:30")]),
    "minutes-61": (BUSY, "date=2024-03-05&minutes=61", [p("10:30", "12:00"), p("13:00", "17:30")]),
    "minutes-90": (BUSY, "date=2024-03-05&minutes=90", [p("10:30", "12:00"), p("13:00", "17:30")]),
    "minutes-270": (BUSY, "date=2024-03-05&minutes=270", [p("13:00", "17:30")]),
    "minutes-271": (BUSY, "date=2024-03-05&minutes=271", []),
    "early": (EARLY, "date=2024-03-05", [p("08:30", "09:00"), p("12:00", "12:30")]),
    "early-1": (EARLY, "date=2024-03-05&minutes=1", [p("08:30", "09:00"), p("12:00", "12:30"), p("17:59", "18:00")]),
    "early-31": (EARLY, "date=2024-03-05&minutes=31", []),
    "empty-day": ([], "date=2024-03-05", [p("08:00", "18:00")]),
    "empty-day-480": ([], "date=2024-03-05&minutes=480", [p("08:00", "18:00")]),
    "other-day": (BUSY, "date=2024-03-07", [{"start": "2024-03-07T08:00", "end": "2024-03-07T18:00"}]),
    "next-day": (BUSY, "date=2024-03-06&minutes=60",
                 [{"start": "2024-03-06T08:00", "end": "2024-03-06T13:00"}, {"start": "2024-03-06T17:00", "end": "2024-03-06T18:00"}]),
    "all-day": ([[4, "07:00", "19:00"]], "date=2024-03-05&minutes=1", []),
    "only-cancelled": ([[4, "08:00", "18:00", "cancelled"]], "date=2024-03-05", [p("08:00", "18:00")]),
    "parameters-in-any-order": (BUSY, "minutes=61&date=2024-03-05", [p("10:30", "12:00"), p("13:00", "17:30")]),
    # a booking that ends where it starts covers no minute: it splits nothing
    "empty-booking": ([[4, "09:00", "10:00"], [4, "14:00", "14:00"], [4, "08:00", "08:00"], [4, "18:00", "18:00"]],
                      "date=2024-03-05&minutes=1", [p("08:00", "09:00"), p("10:00", "18:00")]),
    # a gap one minute short of the default minimum
    "default-29-gap": ([[4, "08:00", "09:00"], [4, "09:29", "17:00"]], "date=2024-03-05", [p("17:00", "18:00")]),
}
BOOLE = [[5, "07:00", "07:30"], [5, "19:00", "21:00"], [4, "07:30", "19:30"]]
CASES["boole"] = (BOOLE, "date=2024-03-05", [p("07:30", "19:00")])


@pytest.fixture(scope="module")
def answers(ts_batch):
    cases = {name: (bookings, query) for name, (bookings, query, _) in CASES.items()}
    return ts_batch("src/app.ts", WORLD + f"""
        const out = {{}};
        for (const [name, [bookings, query]] of Object.entries({json.dumps(cases)})) {{
          const room = name === "boole" ? 5 : 4;
          out[name] = await world(bookings).get(`/api/rooms/${{room}}/availability?${{query}}`);
        }}
        return out;
    """)


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


@pytest.mark.parametrize("name", list(CASES))
def test_free_periods(answers, name):
    bookings, query, expected = CASES[name]
    got = answers[name]
    assert got["status"] == 200, f"GET availability?{query} should be a 200, got {got['status']} {got['body']!r}"
    assert got["body"] == expected, (
        f"with the bookings {bookings} (room {'Boole, 07:00-20:00' if name == 'boole' else 'Ada, 08:00-18:00'}), "
        f"GET /api/rooms/:id/availability?{query} should list {expected}, got {got['body']!r}")


BAD_QUERIES = [
    "date=2024-03-05&minutes=0", "date=2024-03-05&minutes=481", "date=2024-03-05&minutes=2.5",
    "date=2024-03-05&minutes=abc", "date=2024-03-05&minutes=1e2", "date=2024-03-05&minutes=",
    "date=2024-03-05&minutes=-5", "date=2024-03-05&minutes=+30", "date=2024-03-05&minutes=%2030",
    "date=2024-03-05&minutes=0x1e", "date=2024-03-05&minutes=1000", "date=2024-03-05&minutes=30abc",
    "", "minutes=30", "date=", "date=2024-02-30", "date=2024-13-01", "date=tomorrow", "date=2024-03-05T09:00",
]


@pytest.mark.parametrize("query", BAD_QUERIES)
def test_bad_parameters_are_400(ts_batch, query):
    got = ts_batch("src/app.ts", WORLD + f"""
        return await world([]).get("/api/rooms/4/availability?{query}");
    """)
    assert got["status"] == 400, f"GET /api/rooms/4/availability?{query} should be a 400, got {got['status']} {got['body']!r}"
    assert isinstance(got["body"], dict) and isinstance(got["body"].get("error"), str), (
        f"a 400 should answer {{\"error\": \"...\"}}, got {got['body']!r}")


def test_unknown_rooms_and_tokens(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world([]);
        return [await w.get("/api/rooms/99/availability?date=2024-03-05"),
                await w.get("/api/rooms/1/availability?date=2024-03-05"),
                await w.get("/api/rooms/4/availability?date=2024-03-05", null),
                await w.get("/api/rooms/4/availability?date=2024-03-05", "bob-token"),
                await w.get("/api/rooms/4/availability?date=2024-03-05&minutes=480", "admin-token")];
    """)
    assert got[0]["status"] == 404 and got[1]["status"] == 404, f"an unknown room is a 404: {got[0]}, {got[1]}"
    assert got[2]["status"] == 401, f"without a token: 401, got {got[2]}"
    assert got[3]["status"] == 200 and got[4]["status"] == 200, f"any signed-in user may ask: {got[3]}, {got[4]}"
