import { test } from "node:test";
import assert from "node:assert/strict";
import { makeWorld, call } from "./helpers.js";

function withIssues(n) {
  const world = makeWorld();
  for (let i = 1; i <= n; i++) world.store.addIssue("WEB", { title: `Issue ${i}`, authorId: world.users.bob.id });
  return world;
}

test("pages, totals and links", async () => {
  const { app } = withIssues(5);
  const first = await call(app, "GET", "/api/projects/WEB/issues?per_page=2");
  assert.deepEqual(first.data.map((i) => i.ref), ["WEB-5", "WEB-4"]);
  assert.equal(first.headers["x-total-count"], "5");
  assert.equal(first.headers.link, '</api/projects/WEB/issues?per_page=2&page=2>; rel="next"');
  const last = await call(app, "GET", "/api/projects/WEB/issues?per_page=2&page=3");
  assert.deepEqual(last.data.map((i) => i.ref), ["WEB-1"]);
  assert.equal(last.headers.link, '</api/projects/WEB/issues?per_page=2&page=2>; rel="prev"');
  const past = await call(app, "GET", "/api/projects/WEB/issues?page=9");
  assert.deepEqual(past.data, []);
});

test("per_page is capped and bad values are 400", async () => {
  const { app } = withIssues(120);
  assert.equal((await call(app, "GET", "/api/projects/WEB/issues?per_page=500")).data.length, 100);
  for (const q of ["page=0", "page=2.5", "page=abc", "per_page=-1", "per_page="]) {
    assert.equal((await call(app, "GET", `/api/projects/WEB/issues?${q}`)).status, 400, q);
  }
});
