import assert from "node:assert/strict";
import { test } from "node:test";
import { world, type World } from "./helpers.js";

async function book(w: World, token: string, start: string, end: string, title = "Board: sale of the Lyon office") {
  const r = await w.call("POST", "/api/bookings", token, { roomId: 4, title, start, end });
  assert.equal(r.status, 201);
  return r.body as { id: number };
}

test("a booking is read by its owner and admins only", async () => {
  const w = world();
  const { id } = await book(w, "ann-token", "2024-03-05T09:00", "2024-03-05T10:00");
  assert.equal((await w.call("GET", `/api/bookings/${id}`, "ann-token")).status, 200);
  assert.equal((await w.call("GET", `/api/bookings/${id}`, "admin-token")).body.title, "Board: sale of the Lyon office");
  const other = await w.call("GET", `/api/bookings/${id}`, "bob-token");
  const missing = await w.call("GET", "/api/bookings/999", "bob-token");
  assert.equal(other.status, 404);
  assert.equal(missing.status, 404);
});

test("someone else's booking cannot be cancelled, nor told apart from a missing one", async () => {
  const w = world();
  const { id } = await book(w, "ann-token", "2024-03-05T09:00", "2024-03-05T10:00");
  assert.equal((await w.call("DELETE", `/api/bookings/${id}`, "bob-token")).status, 404);
  assert.equal((await w.call("DELETE", `/api/bookings/${id}`, "ann-token")).status, 200);
  assert.equal((await w.call("DELETE", `/api/bookings/${id}`, "bob-token")).status, 404);
  assert.equal((await w.call("DELETE", `/api/bookings/${id}`, "admin-token")).status, 400);
});

test("a room's day shows other people's bookings without their details", async () => {
  const w = world();
  const a = await book(w, "ann-token", "2024-03-05T09:00", "2024-03-05T10:00");
  const b = await book(w, "bob-token", "2024-03-05T11:00", "2024-03-05T12:00", "Interview");
  const r = await w.call("GET", "/api/rooms/4/bookings?date=2024-03-05", "ann-token");
  assert.equal(r.body[0].title, "Board: sale of the Lyon office");
  assert.deepEqual(r.body[1], { id: b.id, roomId: 4, start: "2024-03-05T11:00", end: "2024-03-05T12:00", status: "active" });
  const admin = await w.call("GET", "/api/rooms/4/bookings?date=2024-03-05", "admin-token");
  assert.equal(admin.body[1].title, "Interview");
  assert.equal(admin.body[0].id, a.id);
});
