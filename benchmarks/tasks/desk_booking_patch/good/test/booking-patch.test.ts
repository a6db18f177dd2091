import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

const at = (time: string) => `2024-03-05T${time}`;

test("the owner moves a booking, over where it was", async () => {
  const w = world();
  const made = await w.call("POST", "/api/bookings", "ann-token", { roomId: 4, title: "Sync", start: at("09:00"), end: at("10:00") });
  const r = await w.call("PATCH", `/api/bookings/${made.body.id}`, "ann-token", { start: at("09:30"), end: at("10:30") });
  assert.equal(r.status, 200);
  assert.deepEqual([r.body.start, r.body.end, r.body.title], [at("09:30"), at("10:30"), "Sync"]);
});

test("someone else may not, and protected fields are refused", async () => {
  const w = world();
  const made = await w.call("POST", "/api/bookings", "ann-token", { roomId: 4, title: "Sync", start: at("09:00"), end: at("10:00") });
  assert.equal((await w.call("PATCH", `/api/bookings/${made.body.id}`, "bob-token", { title: "Mine" })).status, 403);
  assert.equal((await w.call("PATCH", `/api/bookings/${made.body.id}`, "ann-token", { userId: 2 })).status, 400);
  assert.equal((await w.call("PATCH", `/api/bookings/${made.body.id}`, "admin-token", { title: " Board " })).body.title, "Board");
  const stored = w.store.getBooking(made.body.id);
  assert.deepEqual([stored?.userId, stored?.title], [1, "Board"]);
});

test("a move into another booking is a 409", async () => {
  const w = world();
  const a = await w.call("POST", "/api/bookings", "ann-token", { roomId: 4, title: "A", start: at("09:00"), end: at("10:00") });
  await w.call("POST", "/api/bookings", "bob-token", { roomId: 4, title: "B", start: at("12:00"), end: at("13:00") });
  assert.equal((await w.call("PATCH", `/api/bookings/${a.body.id}`, "ann-token", { start: at("11:30"), end: at("12:30") })).status, 409);
});
