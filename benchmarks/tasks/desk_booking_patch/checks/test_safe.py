import json

import pytest

# The world of test_correct.py: A (6) is ann's, B (7) bob's, C (8) ann's in another room.
from test_correct import WORLD

PROTECTED = ("id", "roomId", "userId", "status", "createdAt")

# Bodies ann sends for her own booking A that would change a protected field: each value differs
# from what is stored, and the rest of the body is a valid change, so nothing else refuses it.
FORGED = [
    {"userId": 2},
    {"title": "Handover", "userId": 2},
    {"roomId": 5},
    {"start": "2024-03-05T12:15", "end": "2024-03-05T12:45", "roomId": 5},
    {"title": "Renumbered", "id": 7},
    {"status": "cancelled"},
    {"title": "Backdated", "createdAt": "2020-01-01T00:00"},
]


@pytest.mark.parametrize("body", FORGED, ids=[",".join(b) for b in FORGED])
def test_protected_fields_are_never_changed(ts_unchecked, body):
    got = ts_unchecked("src/app.ts", WORLD + f"""
        const w = world();
        const before = w.store.listBookings();
        await attemptAsync(() => w.patch(6, {json.dumps(body)}));
        return {{ before, after: w.store.listBookings() }};
    """)
    before = {b["id"]: b for b in got["before"]}
    after = got["after"]
    assert sorted(b["id"] for b in after) == sorted(before), (
        f"PATCH /api/bookings/6 {json.dumps(body)} changed which booking ids exist: {[b['id'] for b in after]}")
    for booking in after:
        old = before[booking["id"]]
        changed = {k: (old[k], booking.get(k)) for k in PROTECTED if booking.get(k) != old[k]}
        assert not changed, (
            f"ann's PATCH /api/bookings/6 {json.dumps(body)} changed the protected field(s) {changed} of booking "
            f"{booking['id']} (mass assignment): only title, start and end may change")


@pytest.mark.parametrize("token, target", [("bob-token", 6), ("ann-token", 7), ("bob-token", 8)])
def test_only_the_owner_or_an_admin_changes_a_booking(ts_unchecked, token, target):
    got = ts_unchecked("src/app.ts", WORLD + f"""
        const w = world();
        const before = w.store.getBooking({target});
        for (const body of [{{ title: "Taken" }}, {{ start: w.at("16:00"), end: w.at("17:00") }},
                            {{ title: "Taken", start: w.at("16:00"), end: w.at("17:00") }}, {{ end: w.at("10:30") }}])
          await attemptAsync(() => w.patch({target}, body, "{token}"));
        return {{ before, after: w.store.getBooking({target}) }};
    """)
    assert got["after"] == got["before"], (
        f"{token.split('-')[0]} changed booking {got['before']['id']}, which belongs to another user "
        f"(broken access control): it became {got['after']}")
