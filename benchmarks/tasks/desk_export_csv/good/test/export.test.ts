import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

test("a room's bookings of a month as CSV, formulas kept as text", async () => {
  const w = world();
  await w.call("POST", "/api/bookings", "ann-token", { roomId: 4, title: "=SUM(A1:A9)", start: "2024-03-05T09:00", end: "2024-03-05T10:00" });
  await w.call("POST", "/api/bookings", "bob-token", { roomId: 4, title: 'say "hi", then go', start: "2024-03-04T09:00", end: "2024-03-04T10:00" });
  await w.call("POST", "/api/bookings", "bob-token", { roomId: 4, title: "April", start: "2024-04-01T09:00", end: "2024-04-01T10:00" });
  const r = await w.app.handle({ method: "GET", url: "/api/rooms/4/bookings.csv?month=2024-03", headers: { authorization: "Bearer admin-token" }, body: "" });
  assert.equal(r.status, 200);
  assert.equal(r.headers["content-type"], "text/csv; charset=utf-8");
  assert.equal(
    r.body,
    'id,title,organiser,start,end,status\r\n7,"say ""hi"", then go",bob,2024-03-04T09:00,2024-03-04T10:00,active\r\n' +
      "6,'=SUM(A1:A9),ann,2024-03-05T09:00,2024-03-05T10:00,active\r\n",
  );
  assert.equal((await w.call("GET", "/api/rooms/4/bookings.csv?month=2024-03", "ann-token")).status, 403);
  assert.equal((await w.call("GET", "/api/rooms/4/bookings.csv?month=2024-13", "admin-token")).status, 400);
  assert.equal((await w.call("GET", "/api/rooms/99/bookings.csv?month=2024-03", "admin-token")).status, 404);
});
