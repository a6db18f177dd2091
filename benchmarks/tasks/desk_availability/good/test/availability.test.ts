import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

const at = (time: string) => `2024-03-05T${time}`;

test("free periods skip bookings, merged, and keep to opening hours", async () => {
  const w = world();
  w.store.addBooking(1, { roomId: 4, title: "a", start: at("07:00"), end: at("08:30") });
  w.store.addBooking(1, { roomId: 4, title: "b", start: at("10:00"), end: at("12:00") });
  w.store.addBooking(2, { roomId: 4, title: "c", start: at("10:30"), end: at("11:00") });
  const r = await w.call("GET", "/api/rooms/4/availability?date=2024-03-05", "ann-token");
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, [{ start: at("08:30"), end: at("10:00") }, { start: at("12:00"), end: at("18:00") }]);
});

test("short gaps are left out, and bad parameters are a 400", async () => {
  const w = world();
  w.store.addBooking(1, { roomId: 4, title: "a", start: at("08:00"), end: at("09:00") });
  w.store.addBooking(1, { roomId: 4, title: "b", start: at("09:20"), end: at("18:00") });
  assert.deepEqual((await w.call("GET", "/api/rooms/4/availability?date=2024-03-05", "ann-token")).body, []);
  assert.equal((await w.call("GET", "/api/rooms/4/availability?date=2024-03-05&minutes=20", "ann-token")).body.length, 1);
  for (const query of ["date=2024-02-30", "date=2024-03-05&minutes=0", "date=2024-03-05&minutes=2.5", ""]) {
    assert.equal((await w.call("GET", `/api/rooms/4/availability?${query}`, "ann-token")).status, 400, query);
  }
});
