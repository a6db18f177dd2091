import assert from "node:assert/strict";
import { test } from "node:test";
import { world, type World } from "./helpers.js";

async function book(w: World, token: string, roomId: number, start: string, end: string, title = "m") {
  const r = await w.call("POST", "/api/bookings", token, { roomId, title, start, end });
  assert.equal(r.status, 201);
  return r.body as { id: number };
}

async function seeded(): Promise<World> {
  const w = world();
  await book(w, "ann-token", 4, "2024-03-05T09:00", "2024-03-05T10:00", "ann-ada");
  await book(w, "bob-token", 5, "2024-03-05T09:00", "2024-03-05T10:00", "bob-boole");
  await book(w, "ann-token", 5, "2024-03-07T11:00", "2024-03-07T12:00", "ann-boole");
  await book(w, "bob-token", 4, "2024-03-08T11:00", "2024-03-08T12:00", "bob-ada");
  return w;
}

const titles = (body: { title: string }[]) => body.map((b) => b.title);

test("a member searches their own bookings", async () => {
  const w = await seeded();
  const r = await w.call("GET", "/api/bookings", "ann-token");
  assert.equal(r.status, 200);
  assert.deepEqual(titles(r.body), ["ann-ada", "ann-boole"]);
  assert.deepEqual(titles((await w.call("GET", "/api/bookings?user=ann&room=5", "ann-token")).body), ["ann-boole"]);
});

test("a member may not name anyone else", async () => {
  const w = await seeded();
  for (const q of ["user=bob", "user=nobody"]) {
    const r = await w.call("GET", `/api/bookings?${q}`, "ann-token");
    assert.equal(r.status, 403, q);
    assert.equal(typeof r.body.error, "string");
  }
});

test("an admin searches everyone's bookings", async () => {
  const w = await seeded();
  assert.deepEqual(titles((await w.call("GET", "/api/bookings", "admin-token")).body), ["ann-ada", "bob-boole", "ann-boole", "bob-ada"]);
  assert.deepEqual(titles((await w.call("GET", "/api/bookings?user=bob&room=4,5", "admin-token")).body), ["bob-boole", "bob-ada"]);
  assert.deepEqual(titles((await w.call("GET", "/api/bookings?from=2024-03-06&to=2024-03-07", "admin-token")).body), ["ann-boole"]);
  assert.deepEqual((await w.call("GET", "/api/bookings?user=ghost", "admin-token")).body, []);
});

test("cancelled bookings never match", async () => {
  const w = await seeded();
  await w.call("DELETE", "/api/bookings/6", "ann-token");
  assert.deepEqual(titles((await w.call("GET", "/api/bookings", "ann-token")).body), ["ann-boole"]);
});

test("bad values are a 400, no token a 401", async () => {
  const w = await seeded();
  for (const q of ["room=", "room=2,,3", "user=ann,", "room=x", "room=0", "room=-1", "room=2.5", "from=2024-02-30", "from=2024-03-08&to=2024-03-07"]) {
    assert.equal((await w.call("GET", `/api/bookings?${q}`, "admin-token")).status, 400, q);
  }
  assert.equal((await w.call("GET", "/api/bookings")).status, 401);
});
