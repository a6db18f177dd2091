import { test } from "node:test";
import assert from "node:assert/strict";
import { makeWorld, call } from "./helpers.js";

function seeded() {
  const world = makeWorld();
  world.store.addIssue("WEB", { title: "Slow search", authorId: world.users.bob.id });
  world.store.addComment(1, { authorId: world.users.cat.id, body: "Same here" });
  return world;
}

test("the author edits a comment", async () => {
  const world = seeded();
  world.advance(60_000);
  const r = await call(world.app, "PATCH", "/api/comments/1", { token: world.tokens.cat, body: { body: "Same here!" } });
  assert.equal(r.status, 200);
  assert.equal(r.data.body, "Same here!");
  assert.equal(r.data.author, "cat");
  assert.equal(r.data.editedAt, "2024-03-05T12:01:00.000Z");
  const list = await call(world.app, "GET", "/api/issues/1/comments");
  assert.deepEqual(list.data, [r.data]);
});

test("others, maintainers included, get a 403", async () => {
  const { app, tokens } = seeded();
  for (const who of ["bob", "ann"]) {
    const r = await call(app, "PATCH", "/api/comments/1", { token: tokens[who], body: { body: "hacked" } });
    assert.equal(r.status, 403);
  }
  const list = await call(app, "GET", "/api/issues/1/comments");
  assert.equal(list.data[0].body, "Same here");
});

test("401 without a token, 404 for an unknown comment", async () => {
  const { app, tokens } = seeded();
  assert.equal((await call(app, "PATCH", "/api/comments/1", { body: { body: "x" } })).status, 401);
  assert.equal((await call(app, "PATCH", "/api/comments/99", { token: tokens.cat, body: { body: "x" } })).status, 404);
});

test("bad bodies are a 400 and change nothing", async () => {
  const { app, tokens } = seeded();
  for (const body of [{ body: "  " }, { body: 3 }, { body: "ok", authorId: 1 }, "[1]", "nope"]) {
    const r = await call(app, "PATCH", "/api/comments/1", { token: tokens.cat, body });
    assert.equal(r.status, 400, JSON.stringify(body));
  }
  const list = await call(app, "GET", "/api/issues/1/comments");
  assert.equal(list.data[0].body, "Same here");
  assert.equal(list.data[0].editedAt, null);
});
