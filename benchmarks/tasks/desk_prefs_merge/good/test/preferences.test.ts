import assert from "node:assert/strict";
import { test } from "node:test";
import { mergePreferences } from "../src/preferences.js";
import { world } from "./helpers.js";

test("objects merge, other values replace, null deletes", () => {
  const current = { theme: "dark", calendar: { weekStart: "monday", hours: { from: 8, to: 18 } }, pins: [1, 2] };
  const merged = mergePreferences(current, { calendar: { hours: { to: 17 }, weekStart: null }, pins: [3], lang: "de" });
  assert.deepEqual(merged, { theme: "dark", calendar: { hours: { from: 8, to: 17 } }, pins: [3], lang: "de" });
  assert.deepEqual(current.calendar.hours, { from: 8, to: 18 }, "the arguments are not modified");
});

test("PATCH keeps what it does not mention", async () => {
  const w = world();
  await w.call("PUT", "/api/me/preferences", "ann-token", { theme: "dark", calendar: { weekStart: "monday" } });
  const r = await w.call("PATCH", "/api/me/preferences", "ann-token", { calendar: { compact: true } });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { theme: "dark", calendar: { weekStart: "monday", compact: true } });
});

test("keys that name a prototype are refused", async () => {
  const w = world();
  for (const body of ['{"__proto__": {"admin": true}}', '{"a": {"constructor": {"prototype": {"admin": true}}}}']) {
    const r = await w.app.handle({ method: "PATCH", url: "/api/me/preferences", headers: { authorization: "Bearer ann-token" }, body });
    assert.equal(r.status, 400);
  }
  assert.equal(({} as Record<string, unknown>)["admin"], undefined);
  assert.deepEqual((await w.call("GET", "/api/me/preferences", "ann-token")).body, {});
});
