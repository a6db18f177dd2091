import assert from "node:assert/strict";
import { test } from "node:test";
import type { AppResponse } from "../src/http.js";
import { world, type World } from "./helpers.js";

async function page(w: World, url: string, token?: string): Promise<AppResponse> {
  const headers: Record<string, string> = {};
  if (token) headers["authorization"] = `Bearer ${token}`;
  return w.app.handle({ method: "GET", url, headers, body: "" });
}

async function book(w: World, token: string, title: string, start: string, end: string) {
  const r = await w.call("POST", "/api/bookings", token, { roomId: 4, title, start, end });
  assert.equal(r.status, 201);
}

test("a room's day as an HTML page", async () => {
  const w = world();
  await w.call("PUT", "/api/me/preferences", "ann-token", { displayName: "Ann L." });
  await book(w, "ann-token", "Standup", "2024-03-05T09:00", "2024-03-05T09:30");
  await book(w, "bob-token", "Retro", "2024-03-05T11:00", "2024-03-05T12:00");
  await book(w, "bob-token", "Tomorrow", "2024-03-06T11:00", "2024-03-06T12:00");
  const r = await page(w, "/screens/rooms/4?date=2024-03-05", "bob-token");
  assert.equal(r.status, 200);
  assert.equal(r.headers["content-type"], "text/html; charset=utf-8");
  assert.match(r.body, /<h1>Ada<\/h1>/);
  assert.equal(r.body.match(/<li>/g)?.length, 2);
  assert.match(r.body, /09:00–09:30.*Standup.*Ann L\./);
  assert.match(r.body, /11:00–12:00.*Retro.*bob/);
  assert.equal(r.body.includes("Tomorrow"), false);
});

test("display names of any JSON type", async () => {
  const w = world();
  await book(w, "ann-token", "x", "2024-03-05T09:00", "2024-03-05T09:30");
  for (const [value, shown] of [
    [42, "42"],
    [true, "true"],
    [["Ann", "B."], "[&quot;Ann&quot;,&quot;B.&quot;]"],
    [{ first: "Ann" }, "{&quot;first&quot;:&quot;Ann&quot;}"],
    [null, "ann"],
  ] as const) {
    await w.call("PUT", "/api/me/preferences", "ann-token", { displayName: value });
    const r = await page(w, "/screens/rooms/4?date=2024-03-05", "ann-token");
    assert.ok(r.body.includes(`<span class="who">${shown}</span>`), JSON.stringify(value));
  }
});

test("text typed by people stays text", async () => {
  const w = world();
  await w.call("PUT", "/api/me/preferences", "ann-token", { displayName: ["<script>alert(1)</script>"] });
  await book(w, "ann-token", "<img src=x onerror=alert(1)>", "2024-03-05T09:00", "2024-03-05T09:30");
  const r = await page(w, "/screens/rooms/4?date=2024-03-05", "ann-token");
  assert.equal(/<script|<img/.test(r.body), false);
  assert.match(r.body, /&lt;img src=x onerror=alert\(1\)&gt;/);
});

test("errors: no token, unknown room, bad date", async () => {
  const w = world();
  assert.equal((await page(w, "/screens/rooms/4?date=2024-03-05")).status, 401);
  assert.equal((await page(w, "/screens/rooms/99?date=2024-03-05", "ann-token")).status, 404);
  assert.equal((await page(w, "/screens/rooms/4?date=2024-02-30", "ann-token")).status, 400);
  assert.equal((await page(w, "/screens/rooms/4", "ann-token")).status, 400);
});
