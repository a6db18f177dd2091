import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

test("someone else's booking answers as a missing one", async () => {
  const w = world();
  const made = await w.call("POST", "/api/bookings", "ann-token", { roomId: 4, title: "Interview", start: "2024-03-05T09:00", end: "2024-03-05T10:00" });
  const missing = await w.call("GET", "/api/bookings/999", "bob-token");
  assert.deepEqual(await w.call("GET", `/api/bookings/${made.body.id}`, "bob-token"), missing);
  assert.deepEqual(await w.call("DELETE", `/api/bookings/${made.body.id}`, "bob-token"), await w.call("DELETE", "/api/bookings/999", "bob-token"));
  assert.equal((await w.call("GET", `/api/bookings/${made.body.id}`, "admin-token")).body.title, "Interview");
  const day = await w.call("GET", "/api/rooms/4/bookings?date=2024-03-05", "bob-token");
  assert.deepEqual(day.body, [{ id: made.body.id, roomId: 4, start: "2024-03-05T09:00", end: "2024-03-05T10:00", status: "active" }]);
});
