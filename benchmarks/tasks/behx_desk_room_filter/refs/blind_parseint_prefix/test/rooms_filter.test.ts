import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

const names = (body: { name: string }[]): string[] => body.map((room) => room.name);

test("min_capacity lists only the rooms big enough", async () => {
  const w = world();
  assert.deepEqual(names((await w.call("GET", "/api/rooms?min_capacity=8", "ann-token")).body), ["Boole"]);
  assert.deepEqual(names((await w.call("GET", "/api/rooms?min_capacity=6", "ann-token")).body), ["Ada", "Boole"]);
  assert.deepEqual(names((await w.call("GET", "/api/rooms?min_capacity=1", "ann-token")).body), ["Ada", "Boole"]);
  assert.deepEqual((await w.call("GET", "/api/rooms?min_capacity=13", "ann-token")).body, []);
});

test("without min_capacity every room is listed", async () => {
  const w = world();
  assert.deepEqual(names((await w.call("GET", "/api/rooms", "ann-token")).body), ["Ada", "Boole"]);
});

test("a min_capacity that is not a whole number of at least 1 is a 400", async () => {
  const w = world();
  for (const value of ["0", "-3", "ten", ""]) {
    const r = await w.call("GET", `/api/rooms?min_capacity=${value}`, "ann-token");
    assert.equal(r.status, 400, value);
    assert.equal(typeof r.body.error, "string");
  }
});

test("the filtered list keeps the order and hides the webhooks", async () => {
  const w = world();
  w.store.setWebhook(4, "https://screens.example.com/ada");
  w.store.setWebhook(5, "https://screens.example.com/boole");
  w.store.addRoom({ name: "Curie", capacity: 8, opens: "08:00", closes: "18:00" });
  const r = await w.call("GET", "/api/rooms?min_capacity=6", "ann-token");
  assert.deepEqual(names(r.body), ["Ada", "Boole", "Curie"]);
  for (const room of r.body) {
    assert.deepEqual(Object.keys(room).sort(), ["capacity", "closes", "id", "name", "opens"]);
  }
});
