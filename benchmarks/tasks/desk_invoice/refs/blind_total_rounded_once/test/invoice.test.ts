import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../src/config.js";
import { quartersPrice } from "../src/invoice.js";
import { world, type World } from "./helpers.js";

async function book(w: World, token: string, start: string, end: string, roomId = 4): Promise<number> {
  const r = await w.call("POST", "/api/bookings", token, { roomId, title: "m", start, end });
  assert.equal(r.status, 201);
  return r.body.id as number;
}

test("the hourly rate in whole cents", () => {
  const rate = (raw: string | undefined) => loadConfig({ DESKBOOK_HOURLY_RATE: raw }).hourlyRateCents;
  assert.equal(rate("18.45"), 1845);
  assert.equal(rate("20"), 2000);
  assert.equal(rate("7.5"), 750);
  assert.equal(rate("0.29"), 29);
  assert.equal(rate(""), 0);
  assert.equal(rate(undefined), 0);
  for (const bad of ["-1", "18.456", "1e3", "18,45", " 18", "abc"]) {
    assert.throws(() => loadConfig({ DESKBOOK_HOURLY_RATE: bad }), Error, bad);
  }
});

test("quarters are priced per booking, half a cent up", () => {
  assert.equal(quartersPrice(1, 1845), 461);
  assert.equal(quartersPrice(2, 1845), 923);
  assert.equal(quartersPrice(3, 1845), 1384);
});

test("a month's invoice", async () => {
  const w = world({ hourlyRateCents: 1845 });
  const a = await book(w, "ann-token", "2024-03-05T09:00", "2024-03-05T09:20");
  const b = await book(w, "ann-token", "2024-03-06T09:00", "2024-03-06T10:01");
  const c = await book(w, "ann-token", "2024-03-07T09:00", "2024-03-07T09:45");
  await book(w, "ann-token", "2024-04-01T09:00", "2024-04-01T10:00");
  await book(w, "bob-token", "2024-03-05T11:00", "2024-03-05T12:00");
  const d = await book(w, "ann-token", "2024-03-08T09:00", "2024-03-08T10:00");
  await w.call("DELETE", `/api/bookings/${d}`, "ann-token");
  const r = await w.call("GET", "/api/me/invoice?month=2024-03", "ann-token");
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {
    month: "2024-03",
    lines: [
      { id: a, quarters: 2, cents: 923 },
      { id: b, quarters: 5, cents: 2306 },
      { id: c, quarters: 3, cents: 1384 },
    ],
    totalCents: quartersPrice(10, 1845),
  });
  assert.deepEqual((await w.call("GET", "/api/me/invoice?month=2024-05", "ann-token")).body, { month: "2024-05", lines: [], totalCents: 0 });
});

test("a bad month is a 400, no token a 401", async () => {
  const w = world();
  for (const q of ["", "?month=", "?month=2024-13", "?month=2024-3", "?month=march"]) {
    assert.equal((await w.call("GET", `/api/me/invoice${q}`, "ann-token")).status, 400, q);
  }
  assert.equal((await w.call("GET", "/api/me/invoice?month=2024-03")).status, 401);
});
