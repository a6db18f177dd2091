import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

test("searching bookings: members their own only, in every alternative", async () => {
  const w = world();
  const book = (token: string, roomId: number, day: string) =>
    w.call("POST", "/api/bookings", token, { roomId, title: "x", start: `2024-03-${day}T09:00`, end: `2024-03-${day}T10:00` });
  const a = await book("ann-token", 4, "05");
  const b = await book("bob-token", 5, "05");
  const c = await book("ann-token", 5, "07");
  const ids = async (query: string, token = "ann-token") => (await w.call("GET", `/api/bookings${query}`, token)).body.map((x: { id: number }) => x.id);
  assert.deepEqual(await ids(""), [a.body.id, c.body.id]);
  assert.deepEqual(await ids("?room=5&to=2024-03-07"), [c.body.id]);
  assert.deepEqual(await ids("?user=bob,ann", "admin-token"), [a.body.id, b.body.id, c.body.id]);
  assert.equal((await w.call("GET", "/api/bookings?user=ann,bob", "ann-token")).status, 403);
  assert.equal((await w.call("GET", "/api/bookings?room=4,,5", "ann-token")).status, 400);
});
