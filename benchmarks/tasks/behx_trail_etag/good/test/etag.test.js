import { test } from "node:test";
import assert from "node:assert/strict";
import { makeWorld, call } from "./helpers.js";

test("API answers carry an ETag and a matching If-None-Match is a 304", async () => {
  const { app } = makeWorld();
  const first = await call(app, "GET", "/api/projects");
  assert.equal(first.status, 200);
  const tag = first.headers.etag;
  assert.match(tag, /^"[0-9a-f]+"$/);
  const again = await call(app, "GET", "/api/projects", { headers: { "if-none-match": tag } });
  assert.equal(again.status, 304);
  assert.equal(again.body, "");
  assert.equal(again.headers.etag, tag);
  for (const value of [`"x", ${tag}`, `W/${tag}`, "*"]) {
    assert.equal((await call(app, "GET", "/api/projects", { headers: { "if-none-match": value } })).status, 304);
  }
  assert.equal((await call(app, "GET", "/api/projects", { headers: { "if-none-match": '"x"' } })).status, 200);
});

test("pages and errors get no ETag", async () => {
  const { app } = makeWorld();
  assert.equal((await call(app, "GET", "/projects/WEB")).headers.etag, undefined);
  assert.equal((await call(app, "GET", "/api/issues/999")).headers.etag, undefined);
});
