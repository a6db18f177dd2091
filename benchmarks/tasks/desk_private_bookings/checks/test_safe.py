import json

import pytest

from test_correct import WORLD

# ann asks about bob's bookings 7 (active) and 9 (cancelled); 999 and 0 are ids no booking has.
PROBES = [("GET", 7), ("GET", 9), ("DELETE", 7), ("DELETE", 9)]


@pytest.fixture(scope="module")
def probes(ts_unchecked_batch):
    # each probe in a world of its own: a DELETE that went through must not change the next one
    return ts_unchecked_batch("src/app.ts", WORLD + f"""
        const out = [];
        for (const [method, target] of {json.dumps(PROBES)}) {{
          const w = world();
          const before = w.store.getBooking(target);
          const probe = await attemptAsync(() => w.call(method, `/api/bookings/${{target}}`, "ann-token"));
          const missing = await attemptAsync(() => w.call(method, "/api/bookings/999", "ann-token"));
          out.push({{ probe, missing, before, after: w.store.getBooking(target) }});
        }}
        return out;
    """)


@pytest.mark.parametrize("index", range(len(PROBES)), ids=[f"{m}-{t}" for m, t in PROBES])
def test_someone_elses_booking_answers_as_a_missing_one(probes, index):
    method, target = PROBES[index]
    got = probes[index]
    assert got["after"] == got["before"], (
        f"ann's {method} /api/bookings/{target} changed bob's booking: {got['before']} became {got['after']}")
    probe, missing = got["probe"], got["missing"]
    if probe["ok"] and missing["ok"]:
        a, b = probe["value"], missing["value"]
        assert (a["status"], a["text"]) == (b["status"], b["text"]), (
            f"ann's {method} of bob's booking {target} answers {a['status']} {a['text']!r}, but of a booking that does not "
            f"exist {b['status']} {b['text']!r}: the difference tells her which ids are someone else's bookings "
            f"(an existence oracle)")
    else:
        assert probe["ok"] == missing["ok"], (
            f"ann's {method} of bob's booking {target} and of a missing one do not fail alike: {probe} vs {missing}")


def test_no_title_of_someone_else_is_shown(ts_unchecked):
    got = ts_unchecked("src/app.ts", WORLD + """
        const w = world();
        const out = [];
        for (const [method, url] of [["GET", "/api/bookings/7"], ["GET", "/api/bookings/9"], ["DELETE", "/api/bookings/7"],
                                     ["GET", "/api/rooms/4/bookings?date=2024-03-05"], ["GET", "/api/rooms/5/bookings?date=2024-03-05"]]) {
          const r = await attemptAsync(() => w.call(method, url, "ann-token"));
          out.push({ url: `${method} ${url}`, text: r.ok ? r.value.text : "" });
        }
        return out;
    """)
    for r in got:
        for secret in ("Board: sale of the Lyon office", "Dentist"):
            assert secret not in r["text"], (
                f"ann's {r['url']} shows the title {secret!r} of bob's booking: {r['text'][:400]}")
        assert '"userId":2' not in r["text"].replace(" ", ""), (
            f"ann's {r['url']} shows who made bob's booking (userId 2): {r['text'][:400]}")
