import assert from "node:assert/strict";
import { test } from "node:test";
import { mergePreferences } from "../src/preferences.js";
import { world } from "./helpers.js";

test("mergePreferences merges objects and deletes nulls", () => {
  const current = { theme: "dark", calendar: { weekStart: "monday", hours: { from: 8 } } };
  const merged = mergePreferences(current, { calendar: { hours: { to: 18 } }, theme: null, tags: [1, 2] });
  assert.deepEqual(merged, { calendar: { weekStart: "monday", hours: { from: 8, to: 18 } }, tags: [1, 2] });
  assert.deepEqual(mergePreferences({ a: [1, 2] }, { a: [3] }), { a: [3] });
  assert.deepEqual(mergePreferences({ a: 1 }, { missing: null }), { a: 1 });
});

test("PATCH /api/me/preferences", async () => {
  const w = world();
  await w.call("PUT", "/api/me/preferences", "ann-token", { theme: "dark", calendar: { weekStart: "monday" } });
  const r = await w.call("PATCH", "/api/me/preferences", "ann-token", { calendar: { hours: { from: 8 } } });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { theme: "dark", calendar: { weekStart: "monday", hours: { from: 8 } } });
  assert.equal((await w.call("PATCH", "/api/me/preferences", "ann-token", [1])).status, 400);
  assert.equal((await w.call("PATCH", "/api/me/preferences", undefined, { a: 1 })).status, 401);
  assert.deepEqual((await w.call("GET", "/api/me/preferences", "bob-token")).body, {});
});

test("prototype keys are refused", async () => {
  const w = world();
  const r = await w.call("PATCH", "/api/me/preferences", "ann-token", JSON.parse('{"__proto__": {"polluted": true}}'));
  assert.equal(r.status, 400);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
