import { test } from "node:test";
import assert from "node:assert/strict";
import { tokenize, parseQuery, matcher } from "../src/search.js";

test("tokenize keeps quoted phrases", () => {
  assert.deepEqual(tokenize('crash "on save" label:bug ""'), [
    { text: "crash", quoted: false },
    { text: "on save", quoted: true },
    { text: "label:bug", quoted: false },
  ]);
});

test("qualifiers", () => {
  const q = parseQuery("is:closed label:bug label:ui author:@ann assignee:bob priority:HIGH created:>=2024-01-31 Crash");
  assert.equal(q.status, "closed");
  assert.deepEqual(q.labels, ["bug", "ui"]);
  assert.equal(q.author, "ann");
  assert.equal(q.assignee, "bob");
  assert.equal(q.priority, "high");
  assert.equal(q.created[0].op, ">=");
  assert.equal(q.created[0].day.toISOString(), "2024-01-31T00:00:00.000Z");
  assert.deepEqual(q.text, ["crash"]);
  assert.deepEqual(q.errors, []);
});

test("errors are reported, unknown qualifiers are text", () => {
  const q = parseQuery("is:stale created:2024-02-30 http://x.com");
  assert.equal(q.errors.length, 2);
  assert.deepEqual(q.text, ["http://x.com"]);
});

test("matcher", () => {
  const issue = { title: "Crash on save", body: "", status: "open", labels: ["bug"], authorId: 1, assigneeId: null,
    priority: "high", createdAt: "2024-01-31T10:00:00.000Z" };
  const ids = { ann: 1, bob: 2 };
  const m = (q) => matcher(parseQuery(q), (login) => ids[login])(issue);
  assert.ok(m("crash"));
  assert.ok(m('"on save" is:open label:bug author:ann'));
  assert.ok(!m("author:bob"));
  assert.ok(!m("author:nobody"));
  assert.ok(m("created:2024-01-31"));
  assert.ok(m("created:<2024-02-01"));
  assert.ok(m("created:>2024-01-30"));
  assert.ok(!m("label:bug label:ui"));
});
