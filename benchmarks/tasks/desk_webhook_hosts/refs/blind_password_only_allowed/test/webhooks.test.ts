import assert from "node:assert/strict";
import { test } from "node:test";
import { checkWebhookUrl } from "../src/webhooks.js";
import { world } from "./helpers.js";

test("webhook URLs must be https to a listed host", () => {
  const hosts = ["screens.example.com", ".hooks.example.org"];
  assert.equal(checkWebhookUrl("https://screens.example.com/ada", hosts)?.href, "https://screens.example.com/ada");
  assert.ok(checkWebhookUrl("https://a.hooks.example.org:8443/x?y=1", hosts));
  assert.equal(checkWebhookUrl("https://hooks.example.org/", hosts), null);
  assert.equal(checkWebhookUrl("http://screens.example.com/", hosts), null);
  assert.equal(checkWebhookUrl("https://other.example.com/", hosts), null);
  assert.equal(checkWebhookUrl("https://user@screens.example.com/", hosts), null);
  assert.equal(checkWebhookUrl("https://169.254.169.254/latest/meta-data/", hosts), null);
  assert.equal(checkWebhookUrl("https://2130706433/", hosts), null);
  assert.equal(checkWebhookUrl("https://[::1]/", hosts), null);
  assert.equal(checkWebhookUrl("not a url", hosts), null);
  assert.equal(checkWebhookUrl("https://screens.example.com/", []), null);
});

test("the webhook route refuses hosts off the list", async () => {
  const w = world({ webhookHosts: ["screens.example.com"] });
  const r = await w.call("PUT", "/api/rooms/4/webhook", "admin-token", { url: "https://localhost:6379/" });
  assert.equal(r.status, 400);
  assert.equal(w.store.getRoom(4)?.webhook, null);
});
