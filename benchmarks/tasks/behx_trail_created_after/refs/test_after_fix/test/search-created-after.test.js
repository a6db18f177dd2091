import { test } from "node:test";
import assert from "node:assert/strict";
import { parseQuery, matcher } from "../src/search.js";

// Reported: created:>2024-03-05 listed issues opened on March 5th after midnight.
test("created:>D starts at the next day's midnight", () => {
  const at = (createdAt) => ({ title: "t", body: "", status: "open", labels: [], authorId: 1, assigneeId: null,
    priority: "normal", createdAt });
  const m = (q, when) => matcher(parseQuery(q), () => undefined)(at(when));
  assert.equal(m("created:>2024-03-05", "2024-03-05T09:30:00.000Z"), false);
  assert.equal(m("created:>2024-03-05", "2024-03-05T23:59:59.999Z"), false);
  assert.equal(m("created:>2024-03-05", "2024-03-06T00:00:00.000Z"), true);
  assert.equal(m("created:>=2024-03-05", "2024-03-05T00:00:00.000Z"), true);
  assert.equal(m("created:<=2024-03-05", "2024-03-05T23:59:59.999Z"), true);
});
