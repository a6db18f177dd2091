import { test } from "node:test";
import assert from "node:assert/strict";
import { issuesToCsv, csvField } from "../src/export.js";
import { makeWorld, call } from "./helpers.js";

const issue = (title) => ({ ref: "WEB-7", title, status: "open", priority: "normal", labels: [],
  authorId: 1, assigneeId: null, createdAt: "2024-03-01T10:00:00.000Z", closedAt: null });
const users = { login: (id) => (id === 1 ? "ann" : "") };

test("plain fields stay unquoted", () => {
  assert.equal(csvField("Crash"), "Crash");
  assert.equal(csvField("Crash on save"), '"Crash on save"');
  assert.equal(csvField(""), "");
});

test("a title with a comma is quoted", () => {
  const csv = issuesToCsv([issue("Crash when saving,then reloading")], users);
  assert.equal(csv.split("\r\n")[1], 'WEB-7,"Crash when saving,then reloading",open,normal,,ann,,2024-03-01,');
});

test("a quote in a title is doubled", () => {
  assert.equal(csvField('The 5" screen flickers'), '"The 5"" screen flickers"');
});

test("the export endpoint quotes titles", async () => {
  const { app, store, users: u } = makeWorld();
  store.addIssue("WEB", { title: "Crash,again", authorId: u.bob.id });
  const r = await call(app, "GET", "/api/projects/WEB/export.csv");
  assert.equal(r.body.split("\r\n")[1], 'WEB-1,"Crash,again",open,normal,,bob,,2024-03-05,');
});
