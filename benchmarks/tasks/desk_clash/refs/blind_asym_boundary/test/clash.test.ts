import assert from "node:assert/strict";
import { test } from "node:test";
import { overlaps } from "../src/bookings.js";
import { world } from "./helpers.js";

const slot = (start: string, end: string, roomId = 4) => ({ roomId, title: "Standup", start, end });

test("back-to-back bookings do not clash", async () => {
  const w = world();
  assert.equal((await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"))).status, 201);
  assert.equal((await w.call("POST", "/api/bookings", "bob-token", slot("2024-03-05T10:00", "2024-03-05T11:00"))).status, 201);
  const r = await w.call("POST", "/api/bookings", "bob-token", slot("2024-03-05T09:30", "2024-03-05T10:30"));
  assert.equal(r.status, 409);
  assert.equal(typeof r.body.error, "string");
});

test("overlaps is half-open", () => {
  assert.equal(overlaps({ start: "2024-03-05T09:00", end: "2024-03-05T10:00" }, { start: "2024-03-05T10:00", end: "2024-03-05T11:00" }), false);
  assert.equal(overlaps({ start: "2024-03-05T09:00", end: "2024-03-05T10:00" }, { start: "2024-03-05T09:59", end: "2024-03-05T11:00" }), true);
});

test("a cancelled booking does not block its room", async () => {
  const w = world();
  const a = await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"));
  await w.call("DELETE", `/api/bookings/${a.body.id}`, "ann-token");
  assert.equal((await w.call("POST", "/api/bookings", "bob-token", slot("2024-03-05T09:00", "2024-03-05T10:00"))).status, 201);
});
