import assert from "node:assert/strict";
import { test } from "node:test";
import { checkWebhookUrl } from "../src/webhooks.js";
import { world } from "./helpers.js";

const hosts = ["screens.example.com", ".hooks.example.org"];

test("only https URLs of allowed names", () => {
  assert.equal(checkWebhookUrl("https://screens.example.com/ada", hosts)?.href, "https://screens.example.com/ada");
  assert.ok(checkWebhookUrl("https://A.Hooks.Example.org:8443/x?y=1", hosts));
  assert.ok(checkWebhookUrl("https://screens.example.com./", hosts));
  for (const url of [
    "http://screens.example.com/", "https://hooks.example.org/", "https://evilscreens.example.com/",
    "https://screens.example.com.evil.net/", "https://screens.example.com@evil.net/", "https://u:p@screens.example.com/",
    "https://169.254.169.254/", "https://2130706433/", "https://[::1]/", "not a url",
  ]) {
    assert.equal(checkWebhookUrl(url, hosts), null, url);
  }
  assert.equal(checkWebhookUrl("https://screens.example.com/", []), null);
});

test("the route uses the configured list", async () => {
  const w = world({ webhookHosts: hosts });
  const put = (url: string) => w.call("PUT", "/api/rooms/4/webhook", "admin-token", { url });
  assert.equal((await put("https://screens.example.com/ada")).status, 200);
  assert.equal((await put("https://127.0.0.1/")).status, 400);
  assert.equal(w.store.getRoom(4)?.webhook, "https://screens.example.com/ada");
});
