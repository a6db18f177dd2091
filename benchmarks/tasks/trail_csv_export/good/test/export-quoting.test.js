import { test } from "node:test";
import assert from "node:assert/strict";
import { csvField, issuesToCsv } from "../src/export.js";

test("fields are quoted only when they need it", () => {
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField("a, b"), '"a, b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField("two\nlines"), '"two\nlines"');
  assert.equal(csvField("cr\rhere"), '"cr\rhere"');
});

test("a title with a comma keeps the columns in place", () => {
  const issue = { ref: "WEB-1", title: "Crash when saving, then reloading", status: "open", priority: "high",
    labels: [], authorId: 1, assigneeId: null, createdAt: "2024-03-01T10:00:00.000Z", closedAt: null };
  const row = issuesToCsv([issue], { login: () => "ann" }).split("\r\n")[1];
  assert.equal(row, 'WEB-1,"Crash when saving, then reloading",open,high,,ann,ann,2024-03-01,');
});
