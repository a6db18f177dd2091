import { test } from "node:test";
import assert from "node:assert/strict";
import { makeWorld, call } from "./helpers.js";

const ISSUES = "/api/projects/WEB/issues";

test("GET answers under /api/ carry a strong ETag computed from the body", async () => {
  const { app } = makeWorld();
  const a = await call(app, "GET", ISSUES);
  const b = await call(app, "GET", ISSUES);
  assert.equal(a.status, 200);
  assert.match(a.headers.etag, /^"[^"]+"$/);
  assert.equal(a.headers.etag, b.headers.etag);
  const other = await call(app, "GET", "/api/projects");
  assert.notEqual(other.headers.etag, a.headers.etag);
});

test("the tag changes when the body does", async () => {
  const { app, tokens } = makeWorld();
  const before = await call(app, "GET", ISSUES);
  await call(app, "POST", ISSUES, { token: tokens.bob, body: { title: "New one" } });
  const after = await call(app, "GET", ISSUES);
  assert.notEqual(after.body, before.body);
  assert.notEqual(after.headers.etag, before.headers.etag);
});

test("If-None-Match that matches is a 304 with an empty body and the ETag", async () => {
  const { app } = makeWorld();
  const { headers } = await call(app, "GET", ISSUES);
  const tag = headers.etag;
  for (const value of [tag, `"nope", ${tag}`, `"nope",${tag}`, `W/${tag}`, `"a" ,W/${tag} , "b"`, "*"]) {
    const r = await call(app, "GET", ISSUES, { headers: { "If-None-Match": value } });
    assert.equal(r.status, 304, value);
    assert.equal(r.body, "");
    assert.equal(r.headers.etag, tag);
  }
});

test("If-None-Match that does not match is the usual 200", async () => {
  const { app } = makeWorld();
  const first = await call(app, "GET", ISSUES);
  for (const value of ['"nope"', 'W/"nope"', '"nope", "other"', first.headers.etag.slice(1, -1), ""]) {
    const r = await call(app, "GET", ISSUES, { headers: { "if-none-match": value } });
    assert.equal(r.status, 200, value);
    assert.equal(r.body, first.body);
    assert.equal(r.headers.etag, first.headers.etag);
  }
});

test("no ETag on other methods and other statuses", async () => {
  const { app, tokens } = makeWorld();
  const created = await call(app, "POST", ISSUES, { token: tokens.bob, body: { title: "x" } });
  assert.equal(created.headers.etag, undefined);
  const missing = await call(app, "GET", "/api/issues/999", { headers: { "if-none-match": "*" } });
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.etag, undefined);
  const head = await call(app, "HEAD", ISSUES);
  assert.equal(head.headers.etag, undefined);
});
