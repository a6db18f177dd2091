import { test } from "node:test";
import assert from "node:assert/strict";
import { makeWorld, call } from "./helpers.js";

function seeded() {
  const world = makeWorld();
  world.store.addIssue("WEB", { title: "Slow search", authorId: world.users.bob.id });
  world.store.addComment(1, { authorId: world.users.cat.id, body: "Same heer" });
  return world;
}

test("the author edits a comment", async () => {
  const { app, tokens, advance } = seeded();
  const listed = await call(app, "GET", "/api/issues/1/comments");
  assert.equal(listed.data[0].editedAt, null);
  advance(60000);
  const r = await call(app, "PATCH", "/api/comments/1", { token: tokens.cat, body: { body: "Same here" } });
  assert.equal(r.status, 200);
  assert.equal(r.data.body, "Same here");
  assert.equal(r.data.editedAt, "2024-03-05T12:01:00.000Z");
  assert.deepEqual((await call(app, "GET", "/api/issues/1/comments")).data, [r.data]);
});

test("nobody else edits it, maintainers included", async () => {
  const { app, tokens } = seeded();
  assert.equal((await call(app, "PATCH", "/api/comments/1", { token: tokens.ann, body: { body: "x" } })).status, 403);
  assert.equal((await call(app, "PATCH", "/api/comments/1", { token: tokens.bob, body: { body: "x" } })).status, 403);
  assert.equal((await call(app, "PATCH", "/api/comments/1", { body: { body: "x" } })).status, 401);
  assert.equal((await call(app, "PATCH", "/api/comments/9", { token: tokens.cat, body: { body: "x" } })).status, 404);
  const r = await call(app, "PATCH", "/api/comments/1", { token: tokens.cat, body: { body: "x", authorId: 1 } });
  assert.equal(r.status, 400);
  assert.equal((await call(app, "GET", "/api/issues/1/comments")).data[0].body, "Same heer");
});
