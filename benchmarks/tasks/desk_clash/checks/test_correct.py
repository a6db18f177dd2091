import json

import pytest

# Ada (room 2) is open 08:00-18:00, Boole (room 3) 07:00-20:00; ann (1) and an admin (4).
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const world = () => {
  const store = new Store({ clock: () => new Date("2024-03-04T08:00:00Z") });
  store.addUser({ login: "ann", token: "ann-token" });
  store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00" });
  store.addRoom({ name: "Boole", capacity: 12, opens: "07:00", closes: "20:00" });
  store.addUser({ login: "root", role: "admin", token: "admin-token" });
  const app = createApp({ store });
  const call = async (method, url, token, body) => {
    const r = await app.handle({ method, url, headers: { authorization: `Bearer ${token}` },
                                 body: body === undefined ? "" : JSON.stringify(body) });
    let parsed = r.body;
    try { parsed = JSON.parse(r.body); } catch {}
    return { status: r.status, body: parsed };
  };
  const book = (room, start, end, token = "ann-token") =>
    call("POST", "/api/bookings", token, { roomId: room, title: "Sync", start: `2024-03-05T${start}`, end: `2024-03-05T${end}` });
  return { store, call, book };
};
"""

# Ada holds 09:00-10:00; each case books Ada again: (start, end, clashes)
CASES = [
    ("10:00", "11:00", False), ("08:00", "09:00", False), ("10:01", "11:00", False), ("08:00", "08:59", False),
    ("09:00", "10:00", True), ("09:30", "10:30", True), ("08:30", "09:30", True), ("08:00", "11:00", True),
    ("09:15", "09:45", True), ("09:59", "10:30", True), ("08:00", "09:01", True), ("09:00", "09:01", True),
    ("08:00", "10:00", True), ("09:00", "11:00", True),
]


@pytest.fixture(scope="module")
def clashes(ts_batch):
    return ts_batch("src/app.ts", WORLD + f"""
        const out = [];
        for (const [start, end] of {json.dumps([c[:2] for c in CASES])}) {{
          const w = world();
          const first = await w.book(2, "09:00", "10:00");
          const r = await w.book(2, start, end);
          out.push({{ first: first.status, status: r.status, body: r.body, stored: w.store.listBookings().length }});
        }}
        return out;
    """)


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{s}-{e}" for s, e, _ in CASES])
def test_a_booking_clashes_exactly_when_it_overlaps(clashes, index):
    start, end, clash = CASES[index]
    got = clashes[index]
    assert got["first"] == 201, f"booking Ada 09:00-10:00 in an empty office should be a 201, got {got['first']}"
    if clash:
        assert got["status"] == 409, (
            f"Ada is booked 09:00-10:00: {start}-{end} overlaps it and should be a 409, got {got['status']}")
        assert isinstance(got["body"], dict) and isinstance(got["body"].get("error"), str), (
            f"a clash should answer {{\"error\": \"...\"}}, got {got['body']!r}")
        assert got["stored"] == 1, f"a refused booking must not be stored: the store holds {got['stored']}"
    else:
        assert got["status"] == 201, (
            f"Ada is booked 09:00-10:00: {start}-{end} shares no minute with it (a booking holds its room "
            f"up to, not including, its end) and should be a 201, got {got['status']} {got['body']!r}")
        assert got["stored"] == 2, f"an accepted booking is stored: the store holds {got['stored']}"


def test_back_to_back_in_a_row(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        const out = [];
        for (const [s, e] of [["10:00", "11:00"], ["11:00", "12:00"], ["08:00", "09:00"], ["09:00", "10:00"]])
          out.push((await w.book(2, s, e)).status);
        out.push((await w.book(2, "11:59", "12:30")).status);
        out.push((await w.book(2, "12:00", "12:30")).status);
        return out;
    """)
    assert got == [201, 201, 201, 201, 409, 201], (
        f"booking Ada 10-11, 11-12, 8-9, 9-10 (each touching the ones before), then 11:59-12:30 and 12:00-12:30 "
        f"should answer 201, 201, 201, 201, 409, 201; got {got}")


def test_a_cancelled_booking_never_blocks(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        const a = await w.book(2, "09:00", "10:00");
        const cancelled = await w.call("DELETE", `/api/bookings/${a.body.id}`, "ann-token");
        const same = await w.book(2, "09:00", "10:00", "admin-token");
        const b = await w.book(2, "13:00", "15:00");
        await w.call("DELETE", `/api/bookings/${b.body.id}`, "admin-token");
        const inside = await w.book(2, "13:30", "14:00");
        const across = await w.book(2, "12:00", "16:00");
        const again = await w.book(2, "09:30", "10:30");
        return [cancelled.status, same.status, inside.status, across.status, again.status];
    """)
    assert got[0] == 200, f"cancelling a booking should still work, got {got[0]}"
    assert got[1:4] == [201, 201, 409], (
        "a cancelled booking never blocks its room: rebooking its slot, a slot inside it, "
        f"should be 201, 201 (then 12:00-16:00 clashes with the new 13:30-14:00: 409); got {got[1:4]}")
    assert got[4] == 409, f"the active rebooked 09:00-10:00 still blocks 09:30-10:30: 409, got {got[4]}"


def test_other_rooms_and_days_never_clash(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        const out = [(await w.book(2, "09:00", "10:00")).status, (await w.book(3, "09:00", "10:00")).status,
                     (await w.book(3, "09:30", "10:30")).status];
        const next = await w.call("POST", "/api/bookings", "ann-token",
          { roomId: 2, title: "Sync", start: "2024-03-06T09:00", end: "2024-03-06T10:00" });
        out.push(next.status);
        out.push((await w.book(3, "12:00", "13:00")).status);
        return out;
    """)
    assert got == [201, 201, 409, 201, 201], (
        "booking Ada 9-10, Boole 9-10 (another room), Boole 9:30-10:30 (clashes with Boole 9-10), Ada 9-10 the "
        f"next day, Boole 12-13 should answer 201, 201, 409, 201, 201; got {got}")


def test_conflicts_leaves_cancelled_bookings_out(ts):
    # The prompt names conflicts() as the clash rule to fix: filtering cancelled bookings only in
    # the route leaves the rule itself still reporting them as clashes.
    got = ts("src/app.ts", WORLD + """
        const { conflicts } = await loadOther("src/bookings.ts");
        const w = world();
        const a = await w.book(2, "09:00", "10:00");
        const b = await w.book(2, "13:00", "14:00");
        await w.call("DELETE", `/api/bookings/${a.body.id}`, "ann-token");
        const ids = (start, end) => conflicts(w.store, 2, `2024-03-05T${start}`, `2024-03-05T${end}`).map((x) => x.id);
        return { b: b.body.id, cancelled: ids("09:00", "10:00"), across: ids("08:00", "15:00") };
    """)
    assert got["cancelled"] == [], (
        f"conflicts(store, Ada, 09:00, 10:00) returned {got['cancelled']} after that booking was cancelled: "
        "a cancelled booking never clashes")
    assert got["across"] == [got["b"]], (
        f"conflicts(store, Ada, 08:00, 15:00) should return only the active 13:00-14:00 booking "
        f"[{got['b']}], got {got['across']}")
