// Regression: created:>D matched issues opened on D itself (any time after midnight).
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseQuery, matcher } from "../src/search.js";

const matches = (query, createdAt) =>
  matcher(parseQuery(query), () => undefined)({
    title: "t", body: "", status: "open", labels: [], authorId: 1, assigneeId: null, priority: "normal", createdAt,
  });

test("created:>D does not match issues created on D", () => {
  assert.equal(matches("created:>2024-03-05", "2024-03-05T00:00:00.000Z"), false);
  assert.equal(matches("created:>2024-03-05", "2024-03-05T00:00:01.000Z"), false);
  assert.equal(matches("created:>2024-03-05", "2024-03-05T15:30:00.000Z"), false);
  assert.equal(matches("created:>2024-03-05", "2024-03-05T23:59:59.999Z"), false);
});

test("created:>D matches from the next day's midnight on", () => {
  assert.equal(matches("created:>2024-03-05", "2024-03-06T00:00:00.000Z"), true);
  assert.equal(matches("created:>2024-03-05", "2024-03-07T09:00:00.000Z"), true);
  assert.equal(matches("created:>2024-03-05", "2024-03-04T23:59:59.999Z"), false);
});

test("the other date qualifiers are unchanged", () => {
  const day = "2024-03-05";
  const cases = [
    ["2024-03-04T23:59:59.999Z", { ">=": false, "<": true, "<=": true, "": false }],
    ["2024-03-05T00:00:00.000Z", { ">=": true, "<": false, "<=": true, "": true }],
    ["2024-03-05T23:59:59.999Z", { ">=": true, "<": false, "<=": true, "": true }],
    ["2024-03-06T00:00:00.000Z", { ">=": true, "<": false, "<=": false, "": false }],
  ];
  for (const [createdAt, expected] of cases) {
    for (const [op, want] of Object.entries(expected)) {
      assert.equal(matches(`created:${op}${day}`, createdAt), want, `created:${op}${day} on ${createdAt}`);
    }
  }
});
