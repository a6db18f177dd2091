import { test } from "node:test";
import assert from "node:assert/strict";
import { makeWorld, call } from "./helpers.js";

function world(count) {
  const w = makeWorld();
  for (let i = 1; i <= count; i++) w.store.addIssue("WEB", { title: `Issue ${i}`, authorId: w.users.bob.id, labels: i % 2 ? ["bug"] : [] });
  return w;
}
const refs = (r) => r.data.map((i) => i.ref);

test("first page by default, 30 per page", async () => {
  const { app } = world(35);
  const r = await call(app, "GET", "/api/projects/WEB/issues");
  assert.equal(r.status, 200);
  assert.equal(r.data.length, 30);
  assert.equal(r.data[0].ref, "WEB-35");
  assert.equal(r.headers["x-total-count"], "35");
  assert.equal(r.headers.link, '</api/projects/WEB/issues?page=2>; rel="next"');
});

test("second and last page", async () => {
  const { app } = world(5);
  const r = await call(app, "GET", "/api/projects/WEB/issues?state=all&per_page=2&page=3");
  assert.deepEqual(refs(r), ["WEB-1"]);
  assert.equal(r.headers.link, '</api/projects/WEB/issues?state=all&per_page=2&page=2>; rel="prev"');
  const mid = await call(app, "GET", "/api/projects/WEB/issues?per_page=2&page=2");
  assert.deepEqual(refs(mid), ["WEB-3", "WEB-2"]);
  assert.match(mid.headers.link, /page=3>; rel="next"/);
  assert.match(mid.headers.link, /page=1>; rel="prev"/);
});

test("a page past the end is empty", async () => {
  const { app } = world(3);
  const r = await call(app, "GET", "/api/projects/WEB/issues?page=9");
  assert.equal(r.status, 200);
  assert.deepEqual(r.data, []);
  assert.equal(r.headers["x-total-count"], "3");
});

test("no Link header when everything fits", async () => {
  const { app } = world(3);
  const r = await call(app, "GET", "/api/projects/WEB/issues");
  assert.equal(r.headers.link, undefined);
});

test("bad page values are 400", async () => {
  const { app } = world(3);
  for (const v of ["0", "-1", "abc"]) {
    for (const name of ["page", "per_page"]) {
      const r = await call(app, "GET", `/api/projects/WEB/issues?${name}=${v}`);
      assert.equal(r.status, 400, `${name}=${v}`);
      assert.ok(r.data.error);
    }
  }
});
