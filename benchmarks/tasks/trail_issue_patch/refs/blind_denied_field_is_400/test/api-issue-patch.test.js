import { test } from "node:test";
import assert from "node:assert/strict";
import { makeWorld, call } from "./helpers.js";

// ann maintains WEB, bob reports WEB-1, cat is neither.
function seeded() {
  const world = makeWorld();
  world.store.addIssue("WEB", { title: "Login button misaligned", body: "on mobile", authorId: world.users.bob.id, labels: ["bug"] });
  world.advance(60_000);
  return world;
}
const patch = (app, token, body, id = 1) => call(app, "PATCH", `/api/issues/${id}`, { token, body });

test("the reporter edits title and body", async () => {
  const { app, tokens } = seeded();
  const r = await patch(app, tokens.bob, { title: "  Login button off by 2px ", body: "on iOS" });
  assert.equal(r.status, 200);
  assert.equal(r.data.title, "Login button off by 2px");
  assert.equal(r.data.body, "on iOS");
  assert.equal(r.data.updatedAt, "2024-03-05T12:01:00.000Z");
  assert.equal((await call(app, "GET", "/api/issues/1")).data.title, "Login button off by 2px");
});

test("a maintainer edits every field", async () => {
  const { app, tokens, users } = seeded();
  const r = await patch(app, tokens.ann, { status: "closed", priority: "high", labels: ["bug", "docs"], assigneeId: users.cat.id });
  assert.equal(r.status, 200);
  assert.deepEqual([r.data.status, r.data.priority, r.data.labels, r.data.assignee], ["closed", "high", ["bug", "docs"], "cat"]);
  assert.equal(r.data.closedAt, "2024-03-05T12:01:00.000Z");
  const reopened = await patch(app, tokens.ann, { status: "open", assigneeId: null });
  assert.equal(reopened.data.closedAt, null);
  assert.equal(reopened.data.assignee, null);
});

test("who may change what", async () => {
  const { app, tokens } = seeded();
  assert.equal((await patch(app, undefined, { title: "x" })).status, 401);
  assert.equal((await patch(app, tokens.cat, { title: "x" })).status, 403);
  assert.equal((await patch(app, tokens.bob, { authorId: 3 })).status, 400);
  assert.equal((await patch(app, tokens.ann, { createdAt: "2020-01-01T00:00:00.000Z" })).status, 400);
  const issue = (await call(app, "GET", "/api/issues/1")).data;
  assert.deepEqual([issue.title, issue.status, issue.author], ["Login button misaligned", "open", "bob"]);
});

test("bad values are 400, unknown issues 404", async () => {
  const { app, tokens } = seeded();
  for (const body of [{ title: "" }, { priority: "asap" }, { labels: ["nope"] }, { status: "done" }, { assigneeId: 99 }, "[]"]) {
    const r = await patch(app, tokens.ann, body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.ok(r.data.error);
  }
  assert.equal((await patch(app, tokens.ann, { title: "x" }, 99)).status, 404);
});
