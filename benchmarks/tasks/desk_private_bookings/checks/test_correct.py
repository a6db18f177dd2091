import pytest

# ann (1), bob (2), the admin root (3); Ada (4) has a webhook, Boole (5) none. Bookings: 6 ann's
# "Interview: replacement for K." (Ada, active), 7 bob's "Board: sale of the Lyon office" (Ada,
# active), 8 ann's "Old plan" (Ada, cancelled), 9 bob's "Dentist" (Boole, cancelled), all on 2024-03-05.
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const world = () => {
  const store = new Store({ clock: () => new Date("2024-03-01T08:00:00Z") });
  store.addUser({ login: "ann", token: "ann-token" });
  store.addUser({ login: "bob", token: "bob-token" });
  store.addUser({ login: "root", role: "admin", token: "admin-token" });
  store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00", webhook: "https://screens.example.com/ada" });
  store.addRoom({ name: "Boole", capacity: 12, opens: "07:00", closes: "20:00" });
  const add = (userId, roomId, title, start, end, cancel = false) => {
    const b = store.addBooking(userId, { roomId, title, start, end });
    if (cancel) store.updateBooking(b.id, { status: "cancelled" });
    return b.id;
  };
  add(1, 4, "Interview: replacement for K.", "2024-03-05T09:00", "2024-03-05T10:00");
  add(2, 4, "Board: sale of the Lyon office", "2024-03-05T11:00", "2024-03-05T12:00");
  add(1, 4, "Old plan", "2024-03-05T13:00", "2024-03-05T14:00", true);
  add(2, 5, "Dentist", "2024-03-05T15:00", "2024-03-05T16:00", true);
  const sent = [];
  const app = createApp({ store, send: async (url, body) => { sent.push({ url, body: JSON.parse(body) }); } });
  const call = async (method, url, token) => {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const r = await app.handle({ method, url, headers, body: "" });
    let parsed = r.body;
    try { parsed = JSON.parse(r.body); } catch {}
    return { status: r.status, body: parsed, text: r.body };
  };
  return { store, call, add, sent };
};
"""

WHOLE = {"id", "roomId", "userId", "title", "start", "end", "status", "createdAt"}
SHORT = {"id", "roomId", "start", "end", "status"}


def is_error(r):
    return isinstance(r["body"], dict) and isinstance(r["body"].get("error"), str)


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


def test_owner_and_admins_read_a_booking(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        return {
          own: await w.call("GET", "/api/bookings/6", "ann-token"),
          ownCancelled: await w.call("GET", "/api/bookings/8", "ann-token"),
          admin: await w.call("GET", "/api/bookings/7", "admin-token"),
          adminCancelled: await w.call("GET", "/api/bookings/9", "admin-token"),
          stored: [w.store.getBooking(6), w.store.getBooking(8), w.store.getBooking(7), w.store.getBooking(9)],
        };
    """)
    for key, stored in zip(("own", "ownCancelled", "admin", "adminCancelled"), got["stored"]):
        r = got[key]
        assert r["status"] == 200 and r["body"] == stored, (
            f"{key}: the owner of a booking and every admin get it as today (200, the booking, whatever its status): "
            f"expected {stored}, got {r['status']} {r['body']!r}")


def test_someone_elses_booking_is_a_404(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        return {
          get: await w.call("GET", "/api/bookings/7", "ann-token"),
          getCancelled: await w.call("GET", "/api/bookings/9", "ann-token"),
          del: await w.call("DELETE", "/api/bookings/7", "ann-token"),
          delCancelled: await w.call("DELETE", "/api/bookings/9", "ann-token"),
          missing: await w.call("GET", "/api/bookings/999", "ann-token"),
          anonymous: await w.call("GET", "/api/bookings/6", null),
        };
    """)
    for key in ("get", "getCancelled", "del", "delCancelled", "missing"):
        r = got[key]
        assert r["status"] == 404 and is_error(r), (
            f"{key}: ann asking for bob's booking (or one that does not exist) should get the 404 "
            f"{{\"error\": \"...\"}} of a missing booking, got {r['status']} {r['body']!r}")
    assert got["anonymous"]["status"] == 401, f"without a token: a 401, got {got['anonymous']}"


def test_owner_and_admins_cancel_as_today(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        const own = await w.call("DELETE", "/api/bookings/6", "ann-token");
        const again = await w.call("DELETE", "/api/bookings/6", "ann-token");
        const admin = await w.call("DELETE", "/api/bookings/7", "admin-token");
        const adminCancelled = await w.call("DELETE", "/api/bookings/9", "admin-token");
        return { own, again, admin, adminCancelled, sent: w.sent, after: [w.store.getBooking(6), w.store.getBooking(7)] };
    """)
    for key, bid in (("own", 6), ("admin", 7)):
        r = got[key]
        assert r["status"] == 200 and isinstance(r["body"], dict) and r["body"].get("id") == bid and r["body"].get("status") == "cancelled", (
            f"{key}: cancelling booking {bid} by its owner or an admin answers 200 with the cancelled booking, got {r['status']} {r['body']!r}")
    assert [b["status"] for b in got["after"]] == ["cancelled", "cancelled"], f"both bookings are stored cancelled: {got['after']}"
    for key in ("again", "adminCancelled"):
        assert got[key]["status"] == 400 and is_error(got[key]), (
            f"{key}: cancelling a booking already cancelled, by its owner or an admin, is a 400 as today, got {got[key]}")
    events = [(s["url"], s["body"].get("event"), s["body"].get("booking", {}).get("id")) for s in got["sent"]]
    assert events == [("https://screens.example.com/ada", "booking.cancelled", 6), ("https://screens.example.com/ada", "booking.cancelled", 7)], (
        f"each cancellation sends Ada's webhook a booking.cancelled event with the booking, as today: got {events}")


def test_the_days_list_of_a_room(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        return {
          ann: await w.call("GET", "/api/rooms/4/bookings?date=2024-03-05", "ann-token"),
          admin: await w.call("GET", "/api/rooms/4/bookings?date=2024-03-05", "admin-token"),
          bob: await w.call("GET", "/api/rooms/4/bookings?date=2024-03-05", "bob-token"),
          mine: await w.call("GET", "/api/me/bookings", "ann-token"),
          stored: [w.store.getBooking(6), w.store.getBooking(7)],
        };
    """)
    six, seven = got["stored"]
    short = lambda b: {k: b[k] for k in SHORT}  # noqa: E731
    expected = {"ann": [six, short(seven)], "admin": [six, seven], "bob": [short(six), seven]}
    for who, want in expected.items():
        r = got[who]
        assert r["status"] == 200 and r["body"] == want, (
            f"{who}'s GET /api/rooms/4/bookings?date=2024-03-05 lists both active bookings of Ada, each whole when it is "
            f"theirs or they are an admin, else only id, roomId, start, end and status: expected {want}, "
            f"got {r['status']} {r['body']!r}")
    assert got["mine"]["status"] == 200 and got["mine"]["body"] == [six], (
        f"GET /api/me/bookings still lists ann's active bookings: expected {[six]}, got {got['mine']}")
