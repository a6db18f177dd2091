import assert from "node:assert/strict";
import { test } from "node:test";
import type { AppResponse } from "../src/http.js";
import { world, type World } from "./helpers.js";

async function raw(w: World, url: string, token?: string): Promise<AppResponse> {
  const headers: Record<string, string> = {};
  if (token) headers["authorization"] = `Bearer ${token}`;
  return w.app.handle({ method: "GET", url, headers, body: "" });
}

async function book(w: World, token: string, title: string, start: string, end: string) {
  const r = await w.call("POST", "/api/bookings", token, { roomId: 4, title, start, end });
  assert.equal(r.status, 201);
}

test("a room's bookings of a month as CSV", async () => {
  const w = world();
  await book(w, "ann-token", "Standup", "2024-03-05T09:00", "2024-03-05T09:30");
  await book(w, "bob-token", 'say "hi", then go', "2024-03-04T10:00", "2024-03-04T11:00");
  await book(w, "bob-token", "April", "2024-04-01T10:00", "2024-04-01T11:00");
  await w.call("DELETE", "/api/bookings/6", "ann-token");
  const r = await raw(w, "/api/rooms/4/bookings.csv?month=2024-03", "admin-token");
  assert.equal(r.status, 200);
  assert.equal(r.headers["content-type"], "text/csv; charset=utf-8");
  assert.equal(
    r.body,
    "id,title,organiser,start,end,status\r\n" +
      '7,"say ""hi"", then go",bob,2024-03-04T10:00,2024-03-04T11:00,active\r\n' +
      "6,Standup,ann,2024-03-05T09:00,2024-03-05T09:30,cancelled\r\n",
  );
  const empty = await raw(w, "/api/rooms/5/bookings.csv?month=2024-03", "admin-token");
  assert.equal(empty.body, "id,title,organiser,start,end,status\r\n");
});

test("formulas are written as text", async () => {
  const w = world();
  await book(w, "ann-token", "=SUM(A1:A9)", "2024-03-05T09:00", "2024-03-05T09:30");
  await book(w, "ann-token", "-- all hands --", "2024-03-05T10:00", "2024-03-05T10:30");
  await book(w, "ann-token", '=HYPERLINK("http://x","y")', "2024-03-05T11:00", "2024-03-05T11:30");
  const r = await raw(w, "/api/rooms/4/bookings.csv?month=2024-03", "admin-token");
  const lines = r.body.split("\r\n");
  assert.equal(lines[1], "6,'=SUM(A1:A9),ann,2024-03-05T09:00,2024-03-05T09:30,active");
  assert.equal(lines[2], "7,'-- all hands --,ann,2024-03-05T10:00,2024-03-05T10:30,active");
  assert.equal(lines[3], `8,"'=HYPERLINK(""http://x"",""y"")",ann,2024-03-05T11:00,2024-03-05T11:30,active`);
});

test("admins only, known rooms, a real month", async () => {
  const w = world();
  assert.equal((await raw(w, "/api/rooms/4/bookings.csv?month=2024-03")).status, 401);
  assert.equal((await raw(w, "/api/rooms/4/bookings.csv?month=2024-03", "ann-token")).status, 403);
  assert.equal((await raw(w, "/api/rooms/99/bookings.csv?month=2024-03", "admin-token")).status, 404);
  for (const month of ["", "2024-3", "march"]) {
    const r = await raw(w, `/api/rooms/4/bookings.csv?month=${month}`, "admin-token");
    assert.equal(r.status, 400, month);
    assert.equal(typeof JSON.parse(r.body).error, "string");
  }
  assert.equal((await raw(w, "/api/rooms/4/bookings.csv", "admin-token")).status, 400);
});
