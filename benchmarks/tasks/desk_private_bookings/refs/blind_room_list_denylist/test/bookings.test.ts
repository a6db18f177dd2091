import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

const slot = (start: string, end: string, roomId = 4) => ({ roomId, title: "Standup", start, end });

test("a member books a room", async () => {
  const w = world();
  const r = await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"));
  assert.equal(r.status, 201);
  assert.equal(r.body.userId, 1);
  assert.equal(r.body.status, "active");
  assert.equal(r.body.createdAt, "2024-03-04T08:00");
});

test("a booking needs a token", async () => {
  const w = world();
  const r = await w.call("POST", "/api/bookings", undefined, slot("2024-03-05T09:00", "2024-03-05T10:00"));
  assert.equal(r.status, 401);
});

test("bad slots are refused", async () => {
  const w = world();
  const cases: [string, string][] = [
    ["2024-03-05T10:00", "2024-03-05T09:00"],
    ["2024-03-05T10:00", "2024-03-05T10:00"],
    ["2024-03-05T07:30", "2024-03-05T09:00"],
    ["2024-03-05T17:00", "2024-03-05T18:30"],
    ["2024-03-05T08:00", "2024-03-05T16:01"],
    ["2024-03-05T09:00", "2024-02-30T10:00"],
  ];
  for (const [start, end] of cases) {
    const r = await w.call("POST", "/api/bookings", "ann-token", slot(start, end));
    assert.equal(r.status, 400, `${start} - ${end}`);
  }
});

test("an overlapping booking is a 409", async () => {
  const w = world();
  await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"));
  const r = await w.call("POST", "/api/bookings", "bob-token", slot("2024-03-05T09:30", "2024-03-05T10:30"));
  assert.equal(r.status, 409);
  const other = await w.call("POST", "/api/bookings", "bob-token", slot("2024-03-05T09:30", "2024-03-05T10:30", 5));
  assert.equal(other.status, 201, "another room is free");
});

test("cancelling: the owner or an admin", async () => {
  const w = world();
  const made = await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"));
  assert.equal((await w.call("DELETE", `/api/bookings/${made.body.id}`, "bob-token")).status, 404);
  const r = await w.call("DELETE", `/api/bookings/${made.body.id}`, "admin-token");
  assert.equal(r.status, 200);
  assert.equal(r.body.status, "cancelled");
  assert.equal((await w.call("DELETE", `/api/bookings/${made.body.id}`, "ann-token")).status, 400);
});

test("my bookings are the active ones", async () => {
  const w = world();
  const a = await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"));
  await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T11:00", "2024-03-05T12:00"));
  await w.call("DELETE", `/api/bookings/${a.body.id}`, "ann-token");
  const mine = await w.call("GET", "/api/me/bookings", "ann-token");
  assert.deepEqual(mine.body.map((b: { start: string }) => b.start), ["2024-03-05T11:00"]);
});

test("a room's webhook hears about bookings", async () => {
  const w = world();
  w.store.setWebhook(4, "https://screens.example.com/ada");
  await w.call("POST", "/api/bookings", "ann-token", slot("2024-03-05T09:00", "2024-03-05T10:00"));
  assert.equal(w.sent.length, 1);
  assert.equal(w.sent[0]?.url, "https://screens.example.com/ada");
  assert.equal(JSON.parse(w.sent[0]?.body ?? "{}").event, "booking.created");
});
