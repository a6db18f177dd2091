import assert from "node:assert/strict";
import { test } from "node:test";
import { world } from "./helpers.js";

test("the screen page shows the day's bookings, every value escaped", async () => {
  const w = world();
  await w.call("PUT", "/api/me/preferences", "ann-token", { displayName: ["<b>Ann</b>"] });
  await w.call("POST", "/api/bookings", "ann-token", { roomId: 4, title: "Plan <b> & go", start: "2024-03-05T09:00", end: "2024-03-05T10:00" });
  await w.call("POST", "/api/bookings", "bob-token", { roomId: 4, title: "Later", start: "2024-03-06T09:00", end: "2024-03-06T10:00" });
  const r = await w.app.handle({ method: "GET", url: "/screens/rooms/4?date=2024-03-05", headers: { authorization: "Bearer bob-token" }, body: "" });
  assert.equal(r.status, 200);
  assert.equal(r.headers["content-type"], "text/html; charset=utf-8");
  assert.match(r.body, /<li>09:00–10:00 Plan &lt;b&gt; &amp; go \(\[&quot;&lt;b&gt;Ann&lt;\/b&gt;&quot;\]\)<\/li>/);
  assert.equal(r.body.includes("Later"), false);
  assert.equal((await w.call("GET", "/screens/rooms/4?date=x", "bob-token")).status, 400);
});
