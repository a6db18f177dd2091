import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

const patch = (w: ReturnType<typeof world>, body: unknown, token = "admin-token", id = 4) =>
  w.call("PATCH", `/api/rooms/${id}`, token, body);

test("an admin renames and refurnishes a room", async () => {
  const w = world();
  const r = await patch(w, { name: "  Lovelace ", capacity: 8 });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { id: 4, name: "Lovelace", capacity: 8, opens: "08:00", closes: "18:00" });
  assert.deepEqual((await w.call("GET", "/api/rooms/4", "ann-token")).body, r.body);
});

test("fields left out keep their values, and the webhook is never shown", async () => {
  const w = world();
  w.store.setWebhook(4, "https://screens.example.com/ada");
  const r = await patch(w, { opens: "07:30" });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { id: 4, name: "Ada", capacity: 6, opens: "07:30", closes: "18:00" });
  assert.equal(w.store.getRoom(4)?.webhook, "https://screens.example.com/ada");
});

test("opening hours are checked as they will be after the change", async () => {
  const w = world();
  assert.equal((await patch(w, { opens: "19:00" })).status, 400);
  assert.equal((await patch(w, { closes: "08:00" })).status, 400);
  assert.equal((await patch(w, { opens: "19:00", closes: "22:00" })).status, 200);
  assert.equal((await patch(w, { closes: "24:00" })).status, 200);
});

test("bad bodies are a 400 and change nothing", async () => {
  const w = world();
  const before = w.store.getRoom(4);
  for (const body of [
    [1],
    "Ada",
    null,
    {},
    { id: 9 },
    { webhook: "https://evil.example.com/" },
    { name: "X", webhook: null },
    { name: "" },
    { name: "   " },
    { name: 3 },
    { capacity: 0 },
    { capacity: 2.5 },
    { capacity: "8" },
    { name: "Lovelace", capacity: 0 },
    { opens: "8:00" },
    { closes: "25:00" },
    { opens: null },
    { color: "red" },
  ]) {
    const r = await patch(w, body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(typeof r.body.error, "string");
  }
  assert.deepEqual(w.store.getRoom(4), before);
});

test("a member gets a 403, an unknown room a 404", async () => {
  const w = world();
  const r = await patch(w, { name: "Mine" }, "ann-token");
  assert.equal(r.status, 403);
  assert.equal(w.store.getRoom(4)?.name, "Ada");
  assert.equal((await patch(w, { name: "X" }, "admin-token", 99)).status, 404);
  assert.equal((await w.call("PATCH", "/api/rooms/4", undefined, { name: "X" })).status, 401);
});
