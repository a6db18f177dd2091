import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../src/config.js";
import { usageReport } from "../src/report.js";
import { world } from "./helpers.js";

test("rooms are listed without their webhooks", async () => {
  const w = world();
  w.store.setWebhook(4, "https://screens.example.com/ada");
  const r = await w.call("GET", "/api/rooms", "bob-token");
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.map((room: { name: string }) => room.name), ["Ada", "Boole"]);
  assert.equal("webhook" in r.body[0], false);
});

test("only an admin adds a room", async () => {
  const w = world();
  const room = { name: "Curie", capacity: 4 };
  assert.equal((await w.call("POST", "/api/rooms", "ann-token", room)).status, 403);
  const r = await w.call("POST", "/api/rooms", "admin-token", room);
  assert.equal(r.status, 201);
  assert.equal(r.body.opens, "08:00");
  assert.equal((await w.call("POST", "/api/rooms", "admin-token", { name: "X", capacity: 0 })).status, 400);
});

test("a room's bookings of one day", async () => {
  const w = world();
  await w.call("POST", "/api/bookings", "ann-token", { roomId: 4, title: "a", start: "2024-03-05T09:00", end: "2024-03-05T10:00" });
  await w.call("POST", "/api/bookings", "ann-token", { roomId: 4, title: "b", start: "2024-03-06T09:00", end: "2024-03-06T10:00" });
  const r = await w.call("GET", "/api/rooms/4/bookings?date=2024-03-05", "ann-token");
  assert.deepEqual(r.body.map((b: { title: string }) => b.title), ["a"]);
  assert.equal((await w.call("GET", "/api/rooms/4/bookings?date=tomorrow", "ann-token")).status, 400);
  assert.equal((await w.call("GET", "/api/rooms/99/bookings?date=2024-03-05", "ann-token")).status, 404);
});

test("webhook URLs are checked", async () => {
  const w = world();
  const put = (token: string, url: unknown) => w.call("PUT", "/api/rooms/4/webhook", token, { url });
  assert.equal((await put("admin-token", "ftp://screens.example.com/")).status, 400);
  assert.equal((await put("admin-token", "https://screens.example.com/ada")).body.webhook, "https://screens.example.com/ada");
  assert.equal((await put("admin-token", null)).body.webhook, null);
});

test("preferences are replaced as a whole", async () => {
  const w = world();
  await w.call("PUT", "/api/me/preferences", "ann-token", { theme: "dark", calendar: { weekStart: "monday" } });
  const r = await w.call("GET", "/api/me/preferences", "ann-token");
  assert.deepEqual(r.body, { theme: "dark", calendar: { weekStart: "monday" } });
  assert.equal((await w.call("PUT", "/api/me/preferences", "ann-token", [1])).status, 400);
  assert.deepEqual((await w.call("GET", "/api/me/preferences", "bob-token")).body, {});
});

test("unknown routes and methods", async () => {
  const w = world();
  assert.equal((await w.call("GET", "/api/nothing", "ann-token")).status, 404);
  assert.equal((await w.call("PATCH", "/api/rooms", "ann-token")).status, 405);
  assert.equal((await w.call("GET", "/health")).status, 200);
});

test("the usage report", async () => {
  const w = world();
  await w.call("POST", "/api/bookings", "ann-token", { roomId: 5, title: "x", start: "2024-03-05T09:00", end: "2024-03-05T10:30" });
  const csv = usageReport(w.store, "2024-03-01T00:00", "2024-04-01T00:00");
  assert.equal(csv, "room,bookings,hours\r\nAda,0,0.00\r\nBoole,1,1.50\r\n");
});

test("configuration from the environment", () => {
  const config = loadConfig({ DESKBOOK_PORT: "9000", DESKBOOK_WEBHOOK_HOSTS: " Screens.example.com, ,hooks.example.org" });
  assert.equal(config.port, 9000);
  assert.deepEqual(config.webhookHosts, ["screens.example.com", "hooks.example.org"]);
  assert.throws(() => loadConfig({ DESKBOOK_PORT: "80a" }));
});
