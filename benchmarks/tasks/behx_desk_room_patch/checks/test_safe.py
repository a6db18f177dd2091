"""Only an admin may PATCH a room; the webhook is neither changed through it nor shown."""

import json

WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const store = new Store({ clock: () => new Date("2024-03-04T08:00:00Z") });
store.addUser({ login: "ann", token: "ann-token" });
store.addUser({ login: "root", role: "admin", token: "admin-token" });
store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00" });
store.setWebhook(3, "https://screens.example.com/ada-SECRET");
const app = createApp({ store });
const call = async (method, url, token, body) => {
  const r = await app.handle({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {},
                               body: body === undefined ? "" : JSON.stringify(body) });
  return { status: r.status, body: String(r.body) };
};
"""

BODIES = [{"name": "Mine"}, {"capacity": 1}, {"opens": "07:00", "closes": "22:00"}]


def test_a_member_or_a_stranger_changes_nothing(ts_unchecked):
    got = ts_unchecked(
        "src/app.ts",
        WORLD
        + f"""
        const out = [];
        for (const body of {json.dumps(BODIES)}) {{
          for (const token of ["ann-token", undefined, "forged-token"]) {{
            const r = await call("PATCH", "/api/rooms/3", token, body);
            out.push({{ body, token: token ?? null, status: r.status, room: store.getRoom(3) }});
          }}
        }}
        return out;
    """,
    )
    for case in got:
        who = {
            "ann-token": "the member ann",
            None: "a request without a token",
            "forged-token": "an unknown token",
        }[case["token"]]
        expected = 403 if case["token"] == "ann-token" else 401
        room = case["room"]
        assert (room["name"], room["capacity"], room["opens"], room["closes"]) == (
            "Ada",
            6,
            "08:00",
            "18:00",
        ), f"PATCH /api/rooms/3 {json.dumps(case['body'])} by {who} changed the room: {room}"
        assert case["status"] == expected, (
            f"PATCH /api/rooms/3 by {who} should be a {expected}, got {case['status']}"
        )


def test_the_webhook_is_not_changed_or_shown(ts_unchecked):
    got = ts_unchecked(
        "src/app.ts",
        WORLD
        + """
        const out = {};
        out.named = await call("PATCH", "/api/rooms/3", "admin-token", { name: "Lovelace" });
        out.hook = await call("PATCH", "/api/rooms/3", "admin-token", { name: "Hopper", webhook: "http://169.254.169.254/" });
        out.hookOnly = await call("PATCH", "/api/rooms/3", "admin-token", { webhook: null });
        out.stored = store.getRoom(3).webhook;
        return out;
    """,
    )
    assert got["stored"] == "https://screens.example.com/ada-SECRET", (
        f"a PATCH carrying `webhook` changed the room's webhook to {got['stored']!r}: webhooks are set through "
        "PUT /api/rooms/:id/webhook, which checks the URL"
    )
    assert "SECRET" not in got["named"]["body"] and '"webhook"' not in got["named"]["body"], (
        f"the PATCH answer shows the room's webhook: {got['named']['body'][:300]}"
    )
