import json
from fractions import Fraction
from math import ceil, floor

import pytest

# ann (1), bob (2), the admin root (3); Ada (4) is open 08:00-18:00, Boole (5) 07:00-20:00.
# `add` stores a booking as it is; `invoice` is GET /api/me/invoice for a month.
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const world = (hourlyRateCents) => {
  const store = new Store({ clock: () => new Date("2024-03-01T08:00:00Z") });
  store.addUser({ login: "ann", token: "ann-token" });
  store.addUser({ login: "bob", token: "bob-token" });
  store.addUser({ login: "root", role: "admin", token: "admin-token" });
  store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00" });
  store.addRoom({ name: "Boole", capacity: 12, opens: "07:00", closes: "20:00" });
  const app = createApp({ store, config: { hourlyRateCents } });
  const call = async (method, url, token) => {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const r = await app.handle({ method, url, headers, body: "" });
    let parsed = r.body;
    try { parsed = JSON.parse(r.body); } catch {}
    return { status: r.status, body: parsed };
  };
  const add = (userId, roomId, start, end, cancel = false) => {
    const b = store.addBooking(userId, { roomId, title: "Sync", start, end });
    if (cancel) store.updateBooking(b.id, { status: "cancelled" });
    return b.id;
  };
  const invoice = (month = "2024-03", token = "ann-token") => call("GET", `/api/me/invoice?month=${month}`, token);
  return { store, call, add, invoice };
};
"""

# ann's bookings of March 2024, in the order they are stored: (room, start, end) and their minutes.
MARCH = [
    (4, "2024-03-05T09:00", "2024-03-05T09:15"),  # 15 min: 1 quarter
    (4, "2024-03-05T10:00", "2024-03-05T10:20"),  # 20: 2
    (5, "2024-03-04T07:00", "2024-03-04T07:45"),  # 45: 3
    (4, "2024-03-12T08:00", "2024-03-12T09:01"),  # 61: 5
    (5, "2024-03-31T12:00", "2024-03-31T13:30"),  # 90: 6
    (4, "2024-03-05T11:00", "2024-03-05T11:01"),  # 1: 1
    (4, "2024-03-05T12:00", "2024-03-05T12:14"),  # 14: 1
    (4, "2024-03-01T08:00", "2024-03-01T08:16"),  # 16: 2
    (5, "2024-03-20T09:00", "2024-03-20T17:00"),  # 480: 32
    (4, "2024-03-21T15:00", "2024-03-21T16:29"),  # 89: 6
    (4, "2024-03-22T09:00", "2024-03-22T09:30"),  # 30: 2
]
# not billed on ann's March invoice: cancelled, bob's, February, April, March of another year
OTHERS = [
    (1, 4, "2024-03-06T09:00", "2024-03-06T10:00", True),
    (2, 4, "2024-03-06T11:00", "2024-03-06T12:00", False),
    (1, 4, "2024-02-29T09:00", "2024-02-29T10:00", False),
    (1, 4, "2024-04-01T09:00", "2024-04-01T10:00", False),
    (1, 4, "2023-03-06T09:00", "2023-03-06T10:00", False),
]


def minutes(start: str, end: str) -> int:
    return (int(end[11:13]) - int(start[11:13])) * 60 + int(end[14:16]) - int(start[14:16])


def expected(rate: int) -> dict:
    """The invoice the prompt describes, computed with exact fractions."""
    ids = {i: 6 + i for i in range(len(MARCH))}  # users 1-3, rooms 4-5: ann's bookings are 6, 7, ...
    rows = sorted(range(len(MARCH)), key=lambda i: (MARCH[i][1], ids[i]))
    lines = []
    for i in rows:
        q = ceil(Fraction(minutes(MARCH[i][1], MARCH[i][2]), 15))
        lines.append({"id": ids[i], "quarters": q, "cents": floor(Fraction(q * rate, 4) + Fraction(1, 2))})
    return {"month": "2024-03", "lines": lines, "totalCents": sum(line["cents"] for line in lines)}


RATES = [1845, 29, 1850, 2000, 435, 0]


@pytest.fixture(scope="module")
def invoices(ts_batch):
    return ts_batch("src/app.ts", WORLD + f"""
        const out = [];
        for (const rate of {json.dumps(RATES)}) {{
          const w = world(rate);
          for (const [room, start, end] of {json.dumps(MARCH)}) w.add(1, room, start, end);
          for (const [user, room, start, end, cancel] of {json.dumps(OTHERS)}) w.add(user, room, start, end, cancel);
          out.push(await w.invoice());
        }}
        return out;
    """)


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


@pytest.mark.parametrize("index", range(len(RATES)), ids=[f"rate{r}" for r in RATES])
def test_the_invoice_of_a_month(invoices, index):
    rate = RATES[index]
    got = invoices[index]
    want = expected(rate)
    assert got["status"] == 200 and isinstance(got["body"], dict), (
        f"GET /api/me/invoice?month=2024-03 should answer 200 with the invoice, got {got['status']} {got['body']!r}")
    body = got["body"]
    assert body.get("month") == "2024-03", f"the invoice's month should be '2024-03', got {body.get('month')!r}"
    lines = body.get("lines")
    assert isinstance(lines, list), f"the invoice's lines should be a list, got {lines!r}"
    ids = [line.get("id") if isinstance(line, dict) else line for line in lines]
    assert ids == [line["id"] for line in want["lines"]], (
        f"ann's active bookings starting in March 2024, in start order, are {[line['id'] for line in want['lines']]} "
        f"(not cancelled ones, bob's, or other months'); the invoice lists {ids}")
    for line, exp in zip(lines, want["lines"]):
        assert line.get("quarters") == exp["quarters"], (
            f"booking {exp['id']} is billed by the started quarter hour: {exp['quarters']} quarters, got {line.get('quarters')!r}")
        assert line.get("cents") == exp["cents"], (
            f"at {rate} cents an hour, booking {exp['id']} ({exp['quarters']} quarters) costs {exp['quarters']} x {rate} / 4 "
            f"= {Fraction(exp['quarters'] * rate, 4)} cents, rounded half up: {exp['cents']}; got {line.get('cents')!r}")
    assert body.get("totalCents") == want["totalCents"], (
        f"totalCents is the sum of the lines' cents, {want['totalCents']} at {rate} cents an hour, got {body.get('totalCents')!r}")


def test_an_empty_month_and_errors(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world(1845);
        w.add(1, 4, "2024-03-05T09:00", "2024-03-05T10:00");
        const months = ["2024-13", "2024-3", "march", "2024-00", "", "24-03", "2024-03-01", "x2024-03", "12024-03"];
        return {
          empty: await w.invoice("2024-05"),
          bob: await w.invoice("2024-03", "bob-token"),
          anonymous: await w.invoice("2024-03", null),
          missing: await w.call("GET", "/api/me/invoice", "ann-token"),
          bad: await Promise.all(months.map((m) => w.invoice(encodeURIComponent(m)))),
          months,
        };
    """)
    assert got["empty"]["status"] == 200 and got["empty"]["body"] == {"month": "2024-05", "lines": [], "totalCents": 0}, (
        f"a month without bookings is {{\"month\": \"2024-05\", \"lines\": [], \"totalCents\": 0}}, got {got['empty']}")
    assert got["bob"]["status"] == 200 and got["bob"]["body"] == {"month": "2024-03", "lines": [], "totalCents": 0}, (
        f"bob has no bookings: his invoice is empty (only the caller's own bookings are billed), got {got['bob']}")
    def is_error(r):
        return isinstance(r["body"], dict) and isinstance(r["body"].get("error"), str)
    assert got["anonymous"]["status"] == 401 and is_error(got["anonymous"]), f"without a token: a 401, got {got['anonymous']}"
    assert got["missing"]["status"] == 400 and is_error(got["missing"]), f"without month: a 400, got {got['missing']}"
    for month, r in zip(got["months"], got["bad"]):
        assert r["status"] == 400 and is_error(r), (
            f"month={month!r} is not YYYY-MM with a month 01-12: a 400 with {{\"error\": \"...\"}}, got {r}")


RATE_TEXTS = [("18.45", 1845), ("20", 2000), ("7.5", 750), ("0.29", 29), ("4.35", 435), ("1.15", 115),
              ("0.57", 57), ("0.07", 7), ("1.10", 110), ("0", 0), ("100", 10000), ("", 0)]
BAD_RATE_TEXTS = ["-1", "18.456", "1e3", "18,45", " 18", "18 ", "abc", "18.4.5", "Infinity", "0x10", "1.005"]


def test_the_hourly_rate_in_exact_cents(ts):
    got = ts("src/config.ts", f"""
        const loadConfig = pick("loadConfig");
        return {{
          unset: attempt(() => loadConfig({{}}).hourlyRateCents),
          good: {json.dumps([t for t, _ in RATE_TEXTS])}.map((t) => attempt(() => loadConfig({{ DESKBOOK_HOURLY_RATE: t }}).hourlyRateCents)),
          bad: {json.dumps(BAD_RATE_TEXTS)}.map((t) => attempt(() => loadConfig({{ DESKBOOK_HOURLY_RATE: t }}))),
        }};
    """)
    assert got["unset"] == {"ok": True, "value": 0}, f"without DESKBOOK_HOURLY_RATE, hourlyRateCents is 0, got {got['unset']}"
    for (text, cents), r in zip(RATE_TEXTS, got["good"]):
        assert r == {"ok": True, "value": cents}, (
            f"DESKBOOK_HOURLY_RATE={text!r} is {cents} cents exactly: loadConfig gave {r}")
    for text, r in zip(BAD_RATE_TEXTS, got["bad"]):
        assert not r["ok"] and r.get("isError"), (
            f"DESKBOOK_HOURLY_RATE={text!r} is not a price in euros with at most two decimals: loadConfig should throw an "
            f"Error, got {r}")


def test_a_month_from_its_first_minute_to_its_last(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world(1845);
        w.add(1, 4, "2024-11-30T23:00", "2024-11-30T23:30");
        w.add(1, 4, "2024-12-01T00:00", "2024-12-01T00:30");
        w.add(1, 4, "2024-12-31T23:00", "2024-12-31T23:30");
        w.add(1, 4, "2025-01-01T00:00", "2025-01-01T00:30");
        return [await w.invoice("2024-11"), await w.invoice("2024-12"), await w.invoice("2025-01")];
    """)
    line = lambda i: {"id": i, "quarters": 2, "cents": 923}  # noqa: E731
    want = [{"month": "2024-11", "lines": [line(6)], "totalCents": 923},
            {"month": "2024-12", "lines": [line(7), line(8)], "totalCents": 1846},
            {"month": "2025-01", "lines": [line(9)], "totalCents": 923}]
    for r, expected in zip(got, want):
        assert r["status"] == 200 and r["body"] == expected, (
            f"ann's bookings of 30 minutes at 23:00 on 30 November, 00:00 on 1 December, 23:00 on 31 December and 00:00 "
            f"on 1 January: the invoice of {expected['month']} is {expected}, got {r['status']} {r['body']!r}")


# --- the data separate the plausible wrong formulas ------------------------------------------------
# Each wrong way to price a line, on the same bookings and rates: the invoices above must tell every
# one of them from the prompt's (a line's cents or the total differ for at least one rate).
def _half_up(x: Fraction) -> int:
    return floor(x + Fraction(1, 2))


def _invoice_with(rate: int, quarters, price, total=None) -> tuple:
    cents = [price(quarters(minutes(s, e)), minutes(s, e), rate) for _, s, e in MARCH]
    return tuple(cents), (total(cents, rate) if total else sum(cents))


def _right(rate):
    return _invoice_with(rate, lambda m: ceil(Fraction(m, 15)), lambda q, m, r: _half_up(Fraction(q * r, 4)))


WRONG = {
    "binary floats in euros": lambda rate: _invoice_with(
        rate, lambda m: ceil(m / 15), lambda q, m, r: floor(q * (r / 100) / 4 * 100 + 0.5)),
    "half to even": lambda rate: _invoice_with(
        rate, lambda m: ceil(Fraction(m, 15)), lambda q, m, r: round(Fraction(q * r, 4))),
    "truncated": lambda rate: _invoice_with(
        rate, lambda m: ceil(Fraction(m, 15)), lambda q, m, r: floor(Fraction(q * r, 4))),
    "each quarter rounded": lambda rate: _invoice_with(
        rate, lambda m: ceil(Fraction(m, 15)), lambda q, m, r: q * _half_up(Fraction(r, 4))),
    "quarters rounded to the nearest": lambda rate: _invoice_with(
        rate, lambda m: max(1, _half_up(Fraction(m, 15))), lambda q, m, r: _half_up(Fraction(q * r, 4))),
    "by the minute": lambda rate: _invoice_with(
        rate, lambda m: ceil(Fraction(m, 15)), lambda q, m, r: _half_up(Fraction(m * r, 60))),
    "total rounded once from the exact prices": lambda rate: _invoice_with(
        rate, lambda m: ceil(Fraction(m, 15)), lambda q, m, r: _half_up(Fraction(q * r, 4)),
        lambda cents, r: _half_up(sum(Fraction(ceil(Fraction(minutes(s, e), 15)) * r, 4) for _, s, e in MARCH))),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_the_data_separate_the_wrong_formulas(name):
    for rate in RATES:
        want = expected(rate)
        assert _right(rate) == (tuple(line["cents"] for line in sorted(
            want["lines"], key=lambda line: line["id"])), want["totalCents"]), "the right formula disagrees"
    separating = [rate for rate in RATES if WRONG[name](rate) != _right(rate)]
    assert separating, f"no rate of the data separates the wrong formula {name!r} from the prompt's"
