import json

import pytest

# ann (1), bob (2), the admin root (3); Ada (4) is open 08:00-18:00, Boole (5) 07:00-20:00.
# `add` stores a booking as it is (the API trims titles); `csv` is the admin's GET of the export.
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const world = () => {
  const store = new Store({ clock: () => new Date("2024-03-01T08:00:00Z") });
  store.addUser({ login: "ann", token: "ann-token" });
  store.addUser({ login: "bob", token: "bob-token" });
  store.addUser({ login: "root", role: "admin", token: "admin-token" });
  store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00" });
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
  const csv = (month = "2024-03", room = 4, token = "admin-token") =>
    call("GET", `/api/rooms/${room}/bookings.csv?month=${month}`, token);
  return { store, call, add, csv };
};
"""

HEADER = "id,title,organiser,start,end,status\r\n"


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


def test_the_months_bookings_of_the_room(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        w.add(1, 4, "Standup", "2024-03-05T09:00", "2024-03-05T09:15");
        w.add(2, 4, 'say "hi", then go', "2024-03-04T14:00", "2024-03-04T15:30");
        w.add(1, 4, "Retro, sprint 9", "2024-03-31T17:00", "2024-03-31T18:00");
        w.add(2, 4, "Leap day", "2024-02-29T09:00", "2024-02-29T10:00");
        w.add(1, 4, "April", "2024-04-01T08:00", "2024-04-01T09:00");
        w.add(1, 4, "Last year", "2023-03-05T08:00", "2023-03-05T09:00");
        w.add(2, 5, "Other room", "2024-03-05T09:00", "2024-03-05T10:00");
        w.add(2, 4, "Called off", "2024-03-05T08:00", "2024-03-05T08:30", true);
        w.add(1, 4, "Line one\\nline two", "2024-03-06T10:00", "2024-03-06T11:00");
        return [await w.csv(), await w.csv("2024-05")];
    """)
    march, may = got
    expected = HEADER + (
        '7,"say ""hi"", then go",bob,2024-03-04T14:00,2024-03-04T15:30,active\r\n'
        "13,Called off,bob,2024-03-05T08:00,2024-03-05T08:30,cancelled\r\n"
        "6,Standup,ann,2024-03-05T09:00,2024-03-05T09:15,active\r\n"
        '14,"Line one\nline two",ann,2024-03-06T10:00,2024-03-06T11:00,active\r\n'
        '8,"Retro, sprint 9",ann,2024-03-31T17:00,2024-03-31T18:00,active\r\n'
    )
    assert march["status"] == 200, f"the admin's GET /api/rooms/4/bookings.csv?month=2024-03 should be a 200, got {march['status']} {march['body'][:200]!r}"
    assert march["type"] == "text/csv; charset=utf-8", f"the export's content-type should be 'text/csv; charset=utf-8', got {march['type']!r}"
    assert march["body"] == expected, (
        f"the CSV of Ada's bookings starting in March 2024 (active and cancelled, in start order, fields with a comma, "
        f"quote, CR or LF quoted) should be\n{expected!r}\ngot\n{march['body']!r}")
    assert may["status"] == 200 and may["body"] == HEADER, (
        f"a month without bookings gives the header line alone ({HEADER!r}), got {may['status']} {may['body']!r}")


# Titles a spreadsheet would read as formulas, and what the export writes for them.
FORMULA_TITLES = [
    ("=SUM(A1:A9)", "'=SUM(A1:A9)"),
    ("-- all hands --", "'-- all hands --"),
    ("+1 for pizza", "'+1 for pizza"),
    ("@team sync", "'@team sync"),
    ('=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'),
    ("\tTabbed", "'\tTabbed"),
    ("-1,5 budget", "\"'-1,5 budget\""),
    ("a=b", "a=b"),
    ("Q&A - part 2", "Q&A - part 2"),
    ("'quoted'", "'quoted'"),
    (" =1", " =1"),
]


@pytest.fixture(scope="module")
def formula_rows(ts_batch):
    return ts_batch("src/app.ts", WORLD + f"""
        const out = [];
        for (const title of {json.dumps([t for t, _ in FORMULA_TITLES])}) {{
          const w = world();
          w.add(1, 4, title, "2024-03-05T09:00", "2024-03-05T10:00");
          out.push(await w.csv());
        }}
        return out;
    """)


@pytest.mark.parametrize("index", range(len(FORMULA_TITLES)), ids=[repr(t) for t, _ in FORMULA_TITLES])
def test_a_formula_title_is_written_as_text(formula_rows, index):
    title, field = FORMULA_TITLES[index]
    got = formula_rows[index]
    expected = HEADER + f"6,{field},ann,2024-03-05T09:00,2024-03-05T10:00,active\r\n"
    assert got["status"] == 200 and got["body"] == expected, (
        f"a booking titled {title!r} should be exported as the title field {field!r} (a ' in front of a value "
        f"beginning with = + - @ tab or CR, then quoted if needed; other values unchanged): expected\n{expected!r}\n"
        f"got {got['status']}\n{got['body']!r}")


# Logins that begin with a formula character, and what the export writes for them.
FORMULA_LOGINS = [("=ann", "'=ann"), ("-bob-", "'-bob-"), ("@root", "'@root"), ("+x", "'+x"), ("a-b", "a-b")]


def test_a_formula_login_is_written_as_text(ts):
    got = ts("src/app.ts", WORLD + f"""
        const out = [];
        for (const login of {json.dumps([t for t, _ in FORMULA_LOGINS])}) {{
          const w = world();
          const user = w.store.addUser({{ login }});
          w.add(user.id, 4, "Standup", "2024-03-05T09:00", "2024-03-05T10:00");
          out.push(await w.csv());
        }}
        return out;
    """)
    for (login, field), r in zip(FORMULA_LOGINS, got):
        expected = HEADER + f"7,Standup,{field},2024-03-05T09:00,2024-03-05T10:00,active\r\n"
        assert r["status"] == 200 and r["body"] == expected, (
            f"a booking made by the login {login!r} should be exported with the organiser field {field!r}: expected\n"
            f"{expected!r}\ngot {r['status']}\n{r['body']!r}")


def test_who_may_ask_and_bad_months(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        w.add(1, 4, "Standup", "2024-03-05T09:00", "2024-03-05T09:15");
        const months = ["2024-13", "2024-3", "march", "2024-00", "", "24-03", "2024-03-01", "2024-03 ", "x2024-03", "12024-03", "2024-2024-03"];
        return {
          member: await w.csv("2024-03", 4, "ann-token"),
          anonymous: await w.csv("2024-03", 4, null),
          unknown: await w.csv("2024-03", 99),
          missing: await w.call("GET", "/api/rooms/4/bookings.csv", "admin-token"),
          bad: await Promise.all(months.map((m) => w.csv(encodeURIComponent(m)))),
          months,
          december: await w.csv("2024-12"),
          october: await w.csv("2024-10"),
        };
    """)
    def is_error(r):
        return isinstance(r["json"], dict) and isinstance(r["json"].get("error"), str)
    for key, status in (("member", 403), ("anonymous", 401), ("unknown", 404), ("missing", 400)):
        r = got[key]
        assert r["status"] == status and is_error(r), (
            f"the export for {key} should answer {status} with {{\"error\": \"...\"}}, got {r['status']} {r['body'][:200]!r}")
    for month, r in zip(got["months"], got["bad"]):
        assert r["status"] == 400 and is_error(r), (
            f"month={month!r} is not YYYY-MM with a month 01-12: the export should be a 400 with {{\"error\": \"...\"}}, "
            f"got {r['status']} {r['body'][:200]!r}")
    for month in ("december", "october"):
        r = got[month]
        assert r["status"] == 200 and r["body"] == HEADER, (
            f"{month} 2024 is a valid month without bookings: a 200 with the header alone, got {r['status']} {r['body']!r}")


def test_the_first_and_last_months_of_a_year(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world();
        w.add(1, 4, "Eve", "2023-12-31T09:00", "2023-12-31T10:00");
        w.add(1, 4, "New year", "2024-01-01T09:00", "2024-01-01T10:00");
        w.add(2, 4, "Old year", "2024-12-31T09:00", "2024-12-31T10:00");
        w.add(2, 4, "Next year", "2025-01-01T09:00", "2025-01-01T10:00");
        return [await w.csv("2024-01"), await w.csv("2024-12")];
    """)
    want = [HEADER + "7,New year,ann,2024-01-01T09:00,2024-01-01T10:00,active\r\n",
            HEADER + "8,Old year,bob,2024-12-31T09:00,2024-12-31T10:00,active\r\n"]
    for month, r, expected in zip(("2024-01", "2024-12"), got, want):
        assert r["status"] == 200 and r["body"] == expected, (
            f"month={month} should give its one booking (not the day before or after the month):\n{expected!r}\n"
            f"got {r['status']}\n{r['body']!r}")
