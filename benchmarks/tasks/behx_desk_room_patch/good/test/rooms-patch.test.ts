import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

test("an admin corrects a room; bad fields change nothing", async () => {
  const w = world();
  const patch = (body: unknown, token = "admin-token") => w.call("PATCH", "/api/rooms/4", token, body);
  const r = await patch({ name: " Ada Lovelace ", capacity: 8 });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { id: 4, name: "Ada Lovelace", capacity: 8, opens: "08:00", closes: "18:00" });
  for (const bad of [{}, { id: 9 }, { webhook: null }, { capacity: 0 }, { name: "" }, { opens: "19:00" }, { name: "X", capacity: 2.5 }]) {
    assert.equal((await patch(bad)).status, 400);
  }
  assert.equal((await patch({ name: "Mine" }, "ann-token")).status, 403);
  assert.equal((await w.call("PATCH", "/api/rooms/99", "admin-token", { name: "X" })).status, 404);
  assert.equal(w.store.getRoom(4)?.name, "Ada Lovelace");
});
