"""A room's webhook never appears in the room list, filtered or not, whoever asks."""

import json

ROOMS = [("Ada", 6), ("Boole", 12), ("Curie", 4), ("Dijkstra", 8), ("Euler", 20)]
HOOK = "https://screens.example.com/hooks/SECRET-{name}"

WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const store = new Store({ clock: () => new Date("2024-03-04T08:00:00Z") });
store.addUser({ login: "ann", token: "ann-token" });
store.addUser({ login: "root", role: "admin", token: "admin-token" });
for (const [name, capacity] of ROOMS) {
  const room = store.addRoom({ name, capacity, opens: "08:00", closes: "18:00" });
  store.setWebhook(room.id, HOOK.replace("{name}", name));
}
const app = createApp({ store });
const list = async (url, token) => {
  const r = await app.handle({ method: "GET", url, headers: { authorization: `Bearer ${token}` }, body: "" });
  return { status: r.status, body: String(r.body) };
};
""".replace("ROOMS", json.dumps(ROOMS)).replace("HOOK", json.dumps(HOOK))


def test_the_room_list_never_shows_a_webhook(ts_unchecked):
    got = ts_unchecked(
        "src/app.ts",
        WORLD
        + """
        const out = {};
        for (const token of ["ann-token", "admin-token"])
          for (const q of ["", "?min_capacity=1", "?min_capacity=8", "?min_capacity=20"])
            out[`${token} ${q}`] = await list("/api/rooms" + q, token);
        return out;
    """,
    )
    for key, r in got.items():
        assert r["status"] == 200, f"GET /api/rooms as {key} answered {r['status']}"
        assert "SECRET" not in r["body"] and '"webhook"' not in r["body"], (
            f"GET /api/rooms as {key} shows the rooms' webhooks: {r['body'][:300]}"
        )
