import assert from "node:assert/strict";
import { test } from "node:test";
import { overlaps } from "../src/bookings.js";
import { world } from "./helpers.js";

const slot = (start: string, end: string, roomId = 4) => ({ roomId, title: "Sync", start: `2024-03-05T${start}`, end: `2024-03-05T${end}` });

test("a booking ends where the next one may start", () => {
  const nine = { start: "2024-03-05T09:00", end: "2024-03-05T10:00" };
  assert.equal(overlaps(nine, { start: "2024-03-05T10:00", end: "2024-03-05T11:00" }), false);
  assert.equal(overlaps(nine, { start: "2024-03-05T08:00", end: "2024-03-05T09:00" }), false);
  assert.equal(overlaps(nine, { start: "2024-03-05T09:59", end: "2024-03-05T11:00" }), true);
  assert.equal(overlaps(nine, { start: "2024-03-05T08:00", end: "2024-03-05T11:00" }), true);
});

test("back-to-back bookings are accepted, overlapping ones are a 409", async () => {
  const w = world();
  assert.equal((await w.call("POST", "/api/bookings", "ann-token", slot("09:00", "10:00"))).status, 201);
  assert.equal((await w.call("POST", "/api/bookings", "bob-token", slot("10:00", "11:00"))).status, 201);
  assert.equal((await w.call("POST", "/api/bookings", "bob-token", slot("08:00", "09:00"))).status, 201);
  assert.equal((await w.call("POST", "/api/bookings", "bob-token", slot("09:30", "09:45"))).status, 409);
  assert.equal(w.store.listBookings().length, 3);
});

test("a cancelled booking frees its room", async () => {
  const w = world();
  const first = await w.call("POST", "/api/bookings", "ann-token", slot("09:00", "10:00"));
  await w.call("DELETE", `/api/bookings/${first.body.id}`, "ann-token");
  assert.equal((await w.call("POST", "/api/bookings", "bob-token", slot("09:00", "10:00"))).status, 201);
});
