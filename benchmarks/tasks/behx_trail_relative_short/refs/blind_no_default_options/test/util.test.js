import { test } from "node:test";
import assert from "node:assert/strict";
import { relativeTime, isoDate, parseDay } from "../src/util/dates.js";
import { slugify } from "../src/util/slug.js";
import { loadConfig, ConfigError } from "../src/config.js";
import { signBody, payload, retryDelay, hooksFor } from "../src/webhooks.js";
import { weeklyDigest, digestText } from "../src/digest.js";
import { makeWorld, NOW } from "./helpers.js";

test("relative times", () => {
  const now = new Date("2024-03-05T12:00:00Z");
  assert.equal(relativeTime("2024-03-05T11:59:30Z", { now }), "just now");
  assert.equal(relativeTime("2024-03-05T11:00:00Z", { now }), "1 hour ago");
  assert.equal(relativeTime("2024-03-02T12:00:00Z", { now }), "3 days ago");
  assert.equal(relativeTime("2024-03-06T12:00:00Z", { now }), "in 1 day");
  assert.equal(relativeTime("garbage", { now }), "some time ago");
  assert.equal(relativeTime("2024-03-02T12:00:00Z", { now, short: false }), "3 days ago");
});

test("short relative times", () => {
  const now = new Date("2024-03-05T12:00:00Z");
  const short = (when) => relativeTime(when, { now, short: true });
  assert.equal(short("2024-03-02T12:00:00Z"), "3d ago");
  assert.equal(short("2024-03-05T14:00:00Z"), "in 2h");
  assert.equal(short("2024-02-04T12:00:00Z"), "1mo ago");
  assert.equal(short("2024-03-05T11:55:00Z"), "5m ago");
  assert.equal(short("2024-02-20T12:00:00Z"), "2w ago");
  assert.equal(short("2022-03-05T12:00:00Z"), "2y ago");
  assert.equal(short("2024-03-05T11:59:30Z"), "just now");
  assert.equal(short("garbage"), "some time ago");
});

test("days", () => {
  assert.equal(isoDate("2024-03-05T23:59:59Z"), "2024-03-05");
  assert.equal(parseDay("2024-02-29").toISOString(), "2024-02-29T00:00:00.000Z");
  assert.equal(parseDay("2023-02-29"), null);
  assert.equal(parseDay("2024-2-1"), null);
});

test("slugs", () => {
  assert.equal(slugify("Crash on Save (v2)"), "crash-on-save-v2");
  assert.equal(slugify("Café déjà vu"), "cafe-deja-vu");
  assert.equal(slugify("!!!"), "untitled");
});

test("config", () => {
  assert.deepEqual(loadConfig({}), { host: "127.0.0.1", port: 8080, dataFile: "data/issuetrail.json", maxBodyBytes: 1048576, digestDay: 1 });
  assert.equal(loadConfig({ PORT: "9000" }).port, 9000);
  assert.throws(() => loadConfig({ PORT: "80a" }), ConfigError);
  assert.throws(() => loadConfig({ PORT: "70000" }), ConfigError);
  assert.throws(() => loadConfig({ HOST: "a b" }), ConfigError);
});

test("webhooks", () => {
  assert.equal(signBody("k", "{}"), "sha256=add853b103fbcc936a194f9eb15e29c4ff08af6e47d5d1bca4f20218e31e4fff");
  assert.equal(JSON.parse(payload("issue.opened", { id: 1 }, undefined, NOW)).sentAt, NOW.toISOString());
  assert.throws(() => payload("issue.deleted", {}), /unknown event/);
  assert.deepEqual([1, 5, 6].map(retryDelay), [10, 7200, null]);
  assert.throws(() => retryDelay(0), RangeError);
  const hooks = [{ url: "a" }, { url: "b", events: ["comment.created"] }, { url: "c", active: false }];
  assert.deepEqual(hooksFor(hooks, "issue.closed").map((h) => h.url), ["a"]);
});

test("weekly digest", () => {
  const world = makeWorld();
  const { store, users } = world;
  store.addIssue("WEB", { title: "Old", authorId: users.bob.id });
  world.advance(8 * 24 * 3600 * 1000);
  const fresh = store.addIssue("WEB", { title: "Fresh", body: "**Details** here", authorId: users.bob.id });
  store.addComment(fresh.id, { authorId: users.ann.id, body: "hm" });
  store.setStatus(1, "closed");
  const digest = weeklyDigest(store, "WEB", store.clock());
  assert.deepEqual(digest.opened.map((i) => i.ref), ["WEB-2"]);
  assert.deepEqual(digest.closed.map((i) => i.ref), ["WEB-1"]);
  assert.equal(digest.busiest[0].comments, 1);
  assert.match(digestText(digest), /WEB-2 Fresh - Details here/);
});
