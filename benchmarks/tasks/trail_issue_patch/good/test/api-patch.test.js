import { test } from "node:test";
import assert from "node:assert/strict";
import { makeWorld, call } from "./helpers.js";

function seeded() {
  const world = makeWorld();
  world.store.addIssue("WEB", { title: "Login button misaligned", authorId: world.users.bob.id, labels: ["bug"] });
  return world;
}

test("the reporter edits the text, a maintainer triages", async () => {
  const { app, tokens } = seeded();
  const edited = await call(app, "PATCH", "/api/issues/1", { token: tokens.bob, body: { title: "Misaligned login" } });
  assert.equal(edited.status, 200);
  assert.equal(edited.data.title, "Misaligned login");
  const closed = await call(app, "PATCH", "/api/issues/1", { token: tokens.ann, body: { status: "closed", assigneeId: 2 } });
  assert.equal(closed.data.status, "closed");
  assert.equal(closed.data.assignee, "bob");
  assert.equal(closed.data.closedAt, "2024-03-05T12:00:00.000Z");
});

test("refused requests change nothing", async () => {
  const { app, store, tokens } = seeded();
  const before = store.getIssue(1);
  for (const [token, body, status] of [
    [tokens.bob, { status: "closed" }, 403], [tokens.cat, { title: "x" }, 403], [undefined, { title: "x" }, 401],
    [tokens.bob, { authorId: 3 }, 400], [tokens.ann, { title: "ok", projectKey: "OPS" }, 400],
    [tokens.ann, { labels: ["nope"] }, 400], [tokens.ann, { assigneeId: 99 }, 400],
  ]) {
    assert.equal((await call(app, "PATCH", "/api/issues/1", { token, body })).status, status, JSON.stringify(body));
  }
  assert.deepEqual(store.getIssue(1), before);
});
