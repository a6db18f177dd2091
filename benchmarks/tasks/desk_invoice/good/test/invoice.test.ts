import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../src/config.js";
import { world } from "./helpers.js";

test("the hourly rate is read in exact cents", () => {
  assert.equal(loadConfig({ DESKBOOK_HOURLY_RATE: "18.45" }).hourlyRateCents, 1845);
  assert.equal(loadConfig({ DESKBOOK_HOURLY_RATE: "0.29" }).hourlyRateCents, 29);
  assert.equal(loadConfig({ DESKBOOK_HOURLY_RATE: "7.5" }).hourlyRateCents, 750);
  assert.equal(loadConfig({}).hourlyRateCents, 0);
  assert.throws(() => loadConfig({ DESKBOOK_HOURLY_RATE: "18.456" }));
});

test("an invoice bills each booking by the started quarter hour", async () => {
  const w = world({ hourlyRateCents: 1845 });
  const book = (start: string, end: string) =>
    w.call("POST", "/api/bookings", "ann-token", { roomId: 4, title: "x", start: `2024-03-05T${start}`, end: `2024-03-05T${end}` });
  await book("09:00", "09:15");
  await book("10:00", "10:20");
  await book("11:00", "11:45");
  const r = await w.call("GET", "/api/me/invoice?month=2024-03", "ann-token");
  assert.deepEqual(r.body, {
    month: "2024-03",
    lines: [
      { id: 6, quarters: 1, cents: 461 },
      { id: 7, quarters: 2, cents: 923 },
      { id: 8, quarters: 3, cents: 1384 },
    ],
    totalCents: 2768,
  });
  assert.equal((await w.call("GET", "/api/me/invoice?month=2024-3", "ann-token")).status, 400);
});
