import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

const slot = (start: string, end: string, roomId = 4) => ({ roomId, title: "Standup", start, end });

test("the owner moves a booking", async () => {
  const w = world();
  const made = await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"));
  const r = await w.call("PATCH", `/api/bookings/${made.body.id}`, "ann-token", { start: "2024-03-05T11:00", end: "2024-03-05T12:00" });
  assert.equal(r.status, 200);
  assert.equal(r.body.start, "2024-03-05T11:00");
  assert.equal(r.body.title, "Standup");
});

test("PATCH refuses server fields and strangers", async () => {
  const w = world();
  const made = await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"));
  const url = `/api/bookings/${made.body.id}`;
  assert.equal((await w.call("PATCH", url, "ann-token", { userId: 2, title: "x" })).status, 400);
  assert.equal((await w.call("PATCH", url, "bob-token", { start: "2024-03-05T11:00", end: "2024-03-05T12:00" })).status, 403);
  assert.equal((await w.call("PATCH", url, "ann-token", { end: "2024-03-05T19:00" })).status, 400);
  assert.equal((await w.call("PATCH", "/api/bookings/99", "ann-token", { title: "x" })).status, 404);
  assert.equal((await w.call("PATCH", url, undefined, { title: "x" })).status, 401);
  assert.equal((await w.call("GET", url, "ann-token")).body.userId, 1);
});

test("a move into another booking is a 409", async () => {
  const w = world();
  const a = await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"));
  await w.call("POST", "/api/bookings", "bob-token", slot("2024-03-05T11:00", "2024-03-05T12:00"));
  const r = await w.call("PATCH", `/api/bookings/${a.body.id}`, "admin-token", { start: "2024-03-05T11:30", end: "2024-03-05T12:30" });
  assert.equal(r.status, 409);
});
