import json

import pytest

# ann (1), bob (2), an admin (3); Ada (4, 08:00-18:00, with a webhook), Boole (5, 07:00-20:00).
# A: ann's Ada 09:00-10:00 (6); B: bob's Ada 12:00-13:00 (7); C: ann's Boole 09:00-10:00 (8).
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const world = () => {
  const store = new Store({ clock: () => new Date("2024-03-04T08:00:00Z") });
  store.addUser({ login: "ann", token: "ann-token" });
  store.addUser({ login: "bob", token: "bob-token" });
  store.addUser({ login: "root", role: "admin", token: "admin-token" });
  store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00", webhook: "https://screens.example.com/ada" });
  store.addRoom({ name: "Boole", capacity: 12, opens: "07:00", closes: "20:00" });
  const at = (t) => t.includes("T") ? t : `2024-03-05T${t}`;
  store.addBooking(1, { roomId: 4, title: "A", start: at("09:00"), end: at("10:00") });
  store.addBooking(2, { roomId: 4, title: "B", start: at("12:00"), end: at("13:00") });
  store.addBooking(1, { roomId: 5, title: "C", start: at("09:00"), end: at("10:00") });
  const sent = [];
  const app = createApp({ store, send: async (url, body) => { sent.push({ url, body: JSON.parse(body) }); } });
  const call = async (method, url, token, text) => {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const r = await app.handle({ method, url, headers, body: text ?? "" });
    let body = r.body;
    try { body = JSON.parse(r.body); } catch {}
    return { status: r.status, body };
  };
  const patch = (id, body, token = "ann-token") =>
    call("PATCH", `/api/bookings/${id}`, token, typeof body === "string" ? body : JSON.stringify(body));
  return { store, sent, call, patch, at };
};
"""

A = {"id": 6, "roomId": 4, "userId": 1, "title": "A", "start": "2024-03-05T09:00", "end": "2024-03-05T10:00",
     "status": "active", "createdAt": "2024-03-04T08:00"}


def d(time):
    return f"2024-03-05T{time}"


# (body sent by ann for A, the booking after it)
CHANGES = {
    "title-trimmed": ({"title": "  Retro  "}, {**A, "title": "Retro"}),
    "move": ({"start": d("10:30"), "end": d("11:30")}, {**A, "start": d("10:30"), "end": d("11:30")}),
    "over-itself": ({"start": d("09:30"), "end": d("10:30")}, {**A, "start": d("09:30"), "end": d("10:30")}),
    "end-only": ({"end": d("11:00")}, {**A, "end": d("11:00")}),
    "start-only": ({"start": d("08:00")}, {**A, "start": d("08:00")}),
    "all-three": ({"title": "Plan", "start": d("14:00"), "end": d("15:30")},
                  {**A, "title": "Plan", "start": d("14:00"), "end": d("15:30")}),
    "same-values": ({"start": d("09:00"), "end": d("10:00"), "title": "A"}, A),
    "longest": ({"start": d("08:00"), "end": d("16:00")}, None),  # clashes with B 12-13
    "up-to-closing": ({"start": d("16:00"), "end": d("18:00")}, {**A, "start": d("16:00"), "end": d("18:00")}),
    "title-120": ({"title": "x" * 120}, {**A, "title": "x" * 120}),
}

# (body sent by ann for A, the status it gets)
REFUSED = {
    "clash": ({"start": d("11:30"), "end": d("12:30")}, 409),
    "clash-inside": ({"start": d("12:15"), "end": d("12:45")}, 409),
    "title-and-clash": ({"title": "New", "start": d("11:30"), "end": d("12:30")}, 409),
    "title-and-after-closing": ({"title": "New", "end": d("19:00")}, 400),
    "title-and-bad-end": ({"title": "New", "end": "soon"}, 400),
    "longest-clash": ({"start": d("08:00"), "end": d("16:00")}, 409),
    "end-before-start": ({"start": d("11:00")}, 400),
    "before-opening": ({"start": d("07:00"), "end": d("08:30")}, 400),
    "after-closing": ({"start": d("17:00"), "end": d("18:30")}, 400),
    "too-long": ({"start": d("08:00"), "end": d("16:30")}, 400),
    "two-days": ({"end": "2024-03-06T09:30"}, 400),
    "empty-title": ({"title": "   "}, 400),
    "title-121": ({"title": "x" * 121}, 400),
    "title-number": ({"title": 5}, 400),
    "bad-start": ({"start": "tomorrow"}, 400),
    "start-null": ({"start": None}, 400),
    "impossible-date": ({"end": "2024-02-30T10:00"}, 400),
    "other-key": ({"title": "New", "color": "red"}, 400),
    "user-key": ({"title": "New", "userId": 1}, 400),
    "room-key": ({"title": "New", "roomId": 4}, 400),
    "status-key": ({"title": "New", "status": "active"}, 400),
    "id-key": ({"title": "New", "id": 6}, 400),
    "created-key": ({"title": "New", "createdAt": "2024-03-04T08:00"}, 400),
    "no-fields": ({}, 400),
    "array": ([{"title": "New"}], 400),
    "string": ("\"New\"", 400),
    "null": ("null", 400),
    "not-json": ("{title: New}", 400),
}
CHANGES.pop("longest")


@pytest.fixture(scope="module")
def results(ts_batch):
    bodies = {name: body for name, (body, _) in {**CHANGES, **REFUSED}.items()}
    return ts_batch("src/app.ts", WORLD + f"""
        const out = {{}};
        for (const [name, body] of Object.entries({json.dumps(bodies)})) {{
          const w = world();
          const r = await w.patch(6, body);
          out[name] = {{ ...r, stored: w.store.getBooking(6), sent: w.sent, count: w.store.listBookings().length }};
        }}
        return out;
    """)


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


@pytest.mark.parametrize("name", list(CHANGES))
def test_the_owner_changes_a_booking(results, name):
    body, expected = CHANGES[name]
    got = results[name]
    assert got["status"] == 200, f"ann's PATCH /api/bookings/6 {json.dumps(body)} should be a 200, got {got['status']} {got['body']!r}"
    assert got["body"] == expected, f"PATCH {json.dumps(body)} should answer the changed booking {expected}, got {got['body']!r}"
    assert got["stored"] == expected, f"after PATCH {json.dumps(body)} the stored booking is {got['stored']}, expected {expected}"


@pytest.mark.parametrize("name", list(CHANGES))
def test_the_room_webhook_hears_the_change(results, name):
    body, expected = CHANGES[name]
    sent = results[name]["sent"]
    assert len(sent) == 1 and sent[0]["url"] == "https://screens.example.com/ada", (
        f"after PATCH {json.dumps(body)} Ada's webhook should get one event, it got {sent}")
    event = sent[0]["body"]
    assert event.get("event") == "booking.changed" and event.get("booking") == expected, (
        f"the webhook event should be booking.changed with the changed booking, got {event}")


@pytest.mark.parametrize("name", list(REFUSED))
def test_refused_changes(results, name):
    body, status = REFUSED[name]
    got = results[name]
    assert got["status"] == status, f"ann's PATCH /api/bookings/6 {json.dumps(body)} should be a {status}, got {got['status']} {got['body']!r}"
    assert isinstance(got["body"], dict) and isinstance(got["body"].get("error"), str), (
        f"a {status} should answer {{\"error\": \"...\"}}, got {got['body']!r}")
    stored = got["stored"]
    assert stored is not None and (stored["title"], stored["start"], stored["end"]) == ("A", A["start"], A["end"]), (
        f"a refused PATCH ({json.dumps(body)}) changed the booking: {stored}")
    assert got["sent"] == [], f"a refused PATCH sent a webhook event: {got['sent']}"


def test_who_may_change_it(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        const bob = await w.patch(6, { title: "Mine" }, "bob-token");
        const admin = await w.patch(6, { title: "Board", end: w.at("11:00") }, "admin-token");
        const bobOwn = await w.patch(7, { title: "B2" }, "bob-token");
        const annOnBob = await w.patch(7, { start: w.at("12:30") }, "ann-token");
        const none = await w.patch(6, { title: "X" }, null);
        const wrong = await w.patch(6, { title: "X" }, "nobody");
        return { bob, admin, bobOwn, annOnBob, none, wrong };
    """)
    assert got["bob"]["status"] == 403, f"bob changing ann's booking should be a 403, got {got['bob']}"
    assert got["annOnBob"]["status"] == 403, f"ann changing bob's booking should be a 403, got {got['annOnBob']}"
    assert got["admin"]["status"] == 200 and got["admin"]["body"].get("title") == "Board" and got["admin"]["body"].get("end") == d("11:00"), (
        f"an admin may change anyone's booking: {got['admin']}")
    assert got["admin"]["body"].get("userId") == 1, f"an admin's change keeps the owner: {got['admin']['body']}"
    assert got["bobOwn"]["status"] == 200 and got["bobOwn"]["body"].get("title") == "B2", f"bob changes his own: {got['bobOwn']}"
    assert got["none"]["status"] == 401 and got["wrong"]["status"] == 401, (got["none"], got["wrong"])


def test_unknown_and_cancelled_bookings(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        const unknown = await w.patch(99, { title: "X" });
        const word = await w.patch("abc", { title: "X" });
        await w.call("DELETE", "/api/bookings/8", "ann-token");
        const cancelled = await w.patch(8, { title: "X" });
        return { unknown, word, cancelled, stored: w.store.getBooking(8) };
    """)
    assert got["unknown"]["status"] == 404 and got["word"]["status"] == 404, (got["unknown"], got["word"])
    assert got["cancelled"]["status"] == 400, f"a cancelled booking cannot be changed: 400, got {got['cancelled']}"
    assert got["stored"]["title"] == "C" and got["stored"]["status"] == "cancelled", got["stored"]


def test_other_bookings_are_untouched(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        const before = w.store.listBookings().filter((b) => b.id !== 6);
        const r = await w.patch(6, { start: w.at("14:00"), end: w.at("15:00"), title: "Late" });
        return { r, before, after: w.store.listBookings().filter((b) => b.id !== 6) };
    """)
    assert got["r"]["status"] == 200, got["r"]
    assert got["after"] == got["before"], f"changing booking 6 changed another booking: {got['after']}"
