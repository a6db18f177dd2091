import json

import pytest

from test_correct import WORLD

# Members ann (1) and bob (2), the admin root (3), and members "an" (4) and "nn" (5), whose logins
# are inside ann's; rooms 6-8. Each has bookings: a member must never get one that is not theirs.
LOGINS = ["ann", "bob", "root", "an", "nn"]
BOOKINGS = [(u, 6 + (u % 3), f"2024-03-0{u + 3}T{h}:00", False) for u in (1, 2, 3, 4, 5) for h in ("09", "11")]
QUERIES = [
    ("ann", ""), ("ann", "?user=ann"), ("ann", "?user=ann,bob"), ("ann", "?user=bob,ann"), ("ann", "?user=ann,ann,bob"),
    ("ann", "?user=ann,an"), ("ann", "?user=ann,root"), ("ann", "?user=an"), ("ann", "?user=nn,ann"),
    ("ann", "?user=bob"), ("ann", "?room=6,7,8"), ("ann", "?user=ann,bob&room=6,7,8&from=2024-03-01"),
    ("bob", ""), ("bob", "?user=bob,ann"), ("bob", "?user=bob,root,an"), ("an", ""), ("an", "?user=an,ann"),
]


@pytest.fixture(scope="module")
def answers(ts_unchecked_batch):
    return ts_unchecked_batch("src/app.ts", WORLD + f"""
        const w = world({json.dumps(LOGINS)}, {json.dumps(BOOKINGS)});
        const out = [];
        for (const [who, query] of {json.dumps(QUERIES)}) {{
          const r = await attemptAsync(() => w.call(`/api/bookings${{query}}`, `${{who}}-token`));
          out.push(r.ok ? r.value : {{ status: 0, body: null }});
        }}
        return {{ out, owners: Object.fromEntries(w.store.listBookings().map((b) => [b.id, b.userId])) }};
    """)


@pytest.mark.parametrize("index", range(len(QUERIES)), ids=[f"{w}{q or '-'}" for w, q in QUERIES])
def test_a_member_never_gets_anothers_booking(answers, index):
    who, query = QUERIES[index]
    me = LOGINS.index(who) + 1
    r = answers["out"][index]
    owners = {int(k): v for k, v in answers["owners"].items()}
    body = r["body"] if r["status"] == 200 and isinstance(r["body"], list) else []
    leaked = [b for b in body if isinstance(b, dict) and owners.get(b.get("id"), me) != me]
    assert not leaked, (
        f"{who} (a member) asked GET /api/bookings{query} and got bookings of other users "
        f"{[(b.get('id'), LOGINS[owners[b['id']] - 1]) for b in leaked]}: members may search their own bookings only "
        f"(every login of the list checked, each compared exactly)")
