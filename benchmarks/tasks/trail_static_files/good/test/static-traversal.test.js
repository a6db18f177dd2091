import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveStatic } from "../src/static.js";

test("nothing outside the root is served", async () => {
  const dir = mkdtempSync(join(tmpdir(), "static-"));
  try {
    mkdirSync(join(dir, "public"));
    mkdirSync(join(dir, "public-old"));
    writeFileSync(join(dir, "public", "a.css"), "ok");
    writeFileSync(join(dir, "secret.txt"), "secret");
    writeFileSync(join(dir, "public-old", "secret.txt"), "secret");
    const root = join(dir, "public");
    assert.equal((await serveStatic(root, "a.css")).status, 200);
    for (const path of ["../secret.txt", "..%2fsecret.txt", "%2e%2e%2fsecret.txt", "....//secret.txt",
      "../public-old/secret.txt", encodeURIComponent(join(dir, "secret.txt"))]) {
      assert.equal((await serveStatic(root, path)).status, 404, path);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
