import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

const slot = (start: string, end: string, roomId = 4) => ({ roomId, title: "Standup", start, end });

test("a room's free periods", async () => {
  const w = world();
  await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"));
  await w.call("POST", "/api/bookings", "bob-token", slot("2024-03-05T13:00", "2024-03-05T17:45"));
  const r = await w.call("GET", "/api/rooms/4/availability?date=2024-03-05", "ann-token");
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, [
    { start: "2024-03-05T08:00", end: "2024-03-05T09:00" },
    { start: "2024-03-05T10:00", end: "2024-03-05T13:00" },
  ]);
  const all = await w.call("GET", "/api/rooms/4/availability?date=2024-03-05&minutes=10", "ann-token");
  assert.equal(all.body.length, 3);
});

test("untidy bookings are merged and clipped", async () => {
  const w = world();
  w.store.addBooking(1, slot("2024-03-05T07:00", "2024-03-05T09:00"));
  w.store.addBooking(1, slot("2024-03-05T08:30", "2024-03-05T11:00"));
  w.store.addBooking(2, slot("2024-03-05T09:00", "2024-03-05T10:00"));
  w.store.addBooking(2, slot("2024-03-05T16:00", "2024-03-05T19:00"));
  const r = await w.call("GET", "/api/rooms/4/availability?date=2024-03-05", "ann-token");
  assert.deepEqual(r.body, [{ start: "2024-03-05T11:00", end: "2024-03-05T16:00" }]);
});

test("bad availability queries", async () => {
  const w = world();
  for (const q of ["date=2024-02-30", "", "date=2024-03-05&minutes=0", "date=2024-03-05&minutes=481", "date=2024-03-05&minutes=abc"]) {
    assert.equal((await w.call("GET", `/api/rooms/4/availability?${q}`, "ann-token")).status, 400, q);
  }
  assert.equal((await w.call("GET", "/api/rooms/99/availability?date=2024-03-05", "ann-token")).status, 404);
  assert.equal((await w.call("GET", "/api/rooms/4/availability?date=2024-03-05")).status, 401);
});
