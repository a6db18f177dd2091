import { test } from "node:test";
import assert from "node:assert/strict";
import { renderInline } from "../src/markdown.js";

test("web, mail and site links stay links", () => {
  for (const url of ["https://example.com", "HTTP://x.org", "mailto:ann@example.com", "/issues/3", "#top", "?q=1"]) {
    assert.match(renderInline(`[x](${url})`), /^<a href=/, url);
  }
});

test("other links show their text alone", () => {
  for (const url of ["javascript:alert(1)", "JavaScript:alert(1)", "\u0001javascript:alert(1)", "data:text/html,x",
    "vbscript:x", "ftp://example.com", "docs/page.md"]) {
    assert.equal(renderInline(`[click me](${url})`).startsWith("click me"), true, url);
  }
});
