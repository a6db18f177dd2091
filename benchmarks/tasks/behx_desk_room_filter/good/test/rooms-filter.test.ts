import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

test("min_capacity lists the rooms that seat at least that many", async () => {
  const w = world();
  const names = async (query: string): Promise<string[]> =>
    (await w.call("GET", `/api/rooms${query}`, "ann-token")).body.map((r: { name: string }) => r.name);
  assert.deepEqual(await names(""), ["Ada", "Boole"]);
  assert.deepEqual(await names("?min_capacity=8"), ["Boole"]);
  assert.deepEqual(await names("?min_capacity=6"), ["Ada", "Boole"]);
  assert.deepEqual(await names("?min_capacity=13"), []);
  for (const bad of ["0", "-3", "2.5", "ten", "1e1", ""]) {
    assert.equal((await w.call("GET", `/api/rooms?min_capacity=${bad}`, "ann-token")).status, 400);
  }
});
