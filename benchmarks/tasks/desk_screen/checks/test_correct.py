import json
from html.parser import HTMLParser

import pytest

# ann (1), bob (2), the admin root (3); Ada (4) is open 08:00-18:00, Boole (5) 07:00-20:00.
# `add` stores a booking as it is; `prefs` sets a user's preferences; `page` is the screen's GET.
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const world = (adaName = "Ada") => {
  const store = new Store({ clock: () => new Date("2024-03-01T08:00:00Z") });
  store.addUser({ login: "ann", token: "ann-token" });
  store.addUser({ login: "bob", token: "bob-token" });
  store.addUser({ login: "root", role: "admin", token: "admin-token" });
  store.addRoom({ name: adaName, capacity: 6, opens: "08:00", closes: "18:00" });
  store.addRoom({ name: "Boole", capacity: 12, opens: "07:00", closes: "20:00" });
  const app = createApp({ store });
  const call = async (method, url, token) => {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const r = await app.handle({ method, url, headers, body: "" });
    let parsed = null;
    try { parsed = JSON.parse(r.body); } catch {}
    return { status: r.status, type: r.headers["content-type"] ?? null, body: r.body, json: parsed };
  };
  const add = (userId, roomId, title, start, end, cancel = false) => {
    const b = store.addBooking(userId, { roomId, title, start, end });
    if (cancel) store.updateBooking(b.id, { status: "cancelled" });
    return b.id;
  };
  const prefs = (userId, preferences) => store.setPreferences(userId, preferences);
  const page = (date = "2024-03-05", room = 4, token = "bob-token") => call("GET", `/screens/rooms/${room}?date=${date}`, token);
  return { store, call, add, prefs, page };
};
"""


class Page(HTMLParser):
    """The text of the page's <h1> and of each <li>, as a browser shows it (entities decoded)."""

    def __init__(self, body: str):
        super().__init__(convert_charrefs=True)
        self.h1: list[str] = []
        self.items: list[str] = []
        self._open: list[tuple[str, list[str]]] = []
        self.feed(body)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag in ("h1", "li"):
            self._open.append((tag, []))

    def handle_endtag(self, tag):
        if tag in ("h1", "li") and self._open and self._open[-1][0] == tag:
            name, parts = self._open.pop()
            (self.h1 if name == "h1" else self.items).append("".join(parts))

    def handle_data(self, data):
        for _, parts in self._open:
            parts.append(data)


def parse(body: str) -> Page:
    return Page(body)


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


def test_the_days_bookings_of_the_room(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world("Ada & <Lovelace>");
        w.add(1, 4, "Standup", "2024-03-05T09:00", "2024-03-05T09:15");
        w.add(2, 4, 'Plan "Q2" <draft> & more', "2024-03-05T08:00", "2024-03-05T08:45");
        w.add(1, 4, "R&amp;D &copy; &lt;b&gt;", "2024-03-05T16:30", "2024-03-05T18:00");
        w.add(1, 4, "Called off", "2024-03-05T11:00", "2024-03-05T12:00", true);
        w.add(1, 4, "Tomorrow", "2024-03-06T09:00", "2024-03-06T10:00");
        w.add(1, 4, "Yesterday", "2024-03-04T09:00", "2024-03-04T10:00");
        w.add(2, 5, "Other room", "2024-03-05T10:00", "2024-03-05T11:00");
        w.add(1, 4, "Early", "2024-03-05T00:00", "2024-03-05T00:30");
        w.add(2, 4, "Next midnight", "2024-03-06T00:00", "2024-03-06T00:30");
        return [await w.page(), await w.page("2024-03-07")];
    """)
    day, empty = got
    assert day["status"] == 200, f"GET /screens/rooms/4?date=2024-03-05 should be a 200, got {day['status']} {day['body'][:300]!r}"
    assert day["type"] == "text/html; charset=utf-8", f"the page's content-type should be 'text/html; charset=utf-8', got {day['type']!r}"
    page = parse(day["body"])
    assert page.h1 == ["Ada & <Lovelace>"], f"the page should show the room's name 'Ada & <Lovelace>' in one <h1>, as text; got {page.h1}"
    want = [("00:00", "00:30", "Early", "ann"), ("08:00", "08:45", 'Plan "Q2" <draft> & more', "bob"), ("09:00", "09:15", "Standup", "ann"),
            ("16:30", "18:00", "R&amp;D &copy; &lt;b&gt;", "ann")]
    assert len(page.items) == len(want), (
        f"Ada's active bookings starting on 2024-03-05 are 4, from 00:00 (not the cancelled one, other days' or another room's): "
        f"the page has {len(page.items)} <li>: {page.items}")
    for item, (start, end, title, who) in zip(page.items, want):
        assert f"T{start}" not in item and f"T{end}" not in item, (
            f"the <li> of the booking {title!r} should show its times as HH:MM ({start}, {end}), not as stored "
            f"(YYYY-MM-DDTHH:MM); it shows {item!r}")
        for part in (start, end, title, who):
            assert part in item, (
                f"the <li> of the booking {title!r} ({start}-{end}, made by {who}, in start order) should show {part!r} as "
                f"text; it shows {item!r}")
    assert empty["status"] == 200 and parse(empty["body"]).items == [], (
        f"a day without bookings has no <li>, got {empty['status']} {empty['body'][:300]!r}")


# displayName values and the text the page shows for them ("ann" when there is none)
NAMES = [
    ("Ann B.", "Ann B."), ("Ann O'Neil", "Ann O'Neil"), ("<Ann & \"B.\">", "<Ann & \"B.\">"), (42, "42"), (0, "0"), (True, "true"),
    (False, "false"), (["Ann", "B."], '["Ann","B."]'), ({"first": "Ann"}, '{"first":"Ann"}'),
    ([1, ["<i>"]], '[1,["<i>"]]'), (None, "ann"), ("__missing__", "ann"), (2.5, "2.5"),
]


@pytest.fixture(scope="module")
def shown(ts_batch):
    return ts_batch("src/app.ts", WORLD + f"""
        const out = [];
        for (const name of {json.dumps([n for n, _ in NAMES])}) {{
          const w = world();
          w.prefs(1, name === "__missing__" ? {{ theme: "dark" }} : {{ theme: "dark", displayName: name }});
          w.add(1, 4, "Standup", "2024-03-05T09:00", "2024-03-05T09:15");
          out.push(await w.page());
        }}
        return out;
    """)


@pytest.mark.parametrize("index", range(len(NAMES)), ids=[json.dumps(n) for n, _ in NAMES])
def test_who_made_it_by_their_display_name(shown, index):
    name, text = NAMES[index]
    got = shown[index]
    items = parse(got["body"]).items if got["status"] == 200 else []
    # what the <li> shows besides the booking's times and title
    rest = items[0].replace("09:00", "").replace("09:15", "").replace("Standup", "") if len(items) == 1 else ""
    assert len(items) == 1 and text in rest, (
        f"ann's displayName preference is {json.dumps(name) if name != '__missing__' else 'not set'}: the <li> of her "
        f"booking should show {text!r} as text; got {got['status']} {items or got['body'][:300]!r}")


def test_errors(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        const dates = ["", "2024-02-30", "2024-3-5", "tomorrow"];
        return {
          anonymous: await w.page("2024-03-05", 4, null),
          unknown: await w.page("2024-03-05", 99),
          missing: await w.call("GET", "/screens/rooms/4", "bob-token"),
          bad: await Promise.all(dates.map((d) => w.page(d))),
          dates,
        };
    """)
    def is_error(r):
        return isinstance(r["json"], dict) and isinstance(r["json"].get("error"), str)
    for key, status in (("anonymous", 401), ("unknown", 404), ("missing", 400)):
        r = got[key]
        assert r["status"] == status and is_error(r), (
            f"the screen page for {key} should answer {status} with {{\"error\": \"...\"}}, got {r['status']} {r['body'][:200]!r}")
    for date, r in zip(got["dates"], got["bad"]):
        assert r["status"] == 400 and is_error(r), f"date={date!r} is not a real YYYY-MM-DD: a 400, got {r['status']} {r['body'][:200]!r}"
