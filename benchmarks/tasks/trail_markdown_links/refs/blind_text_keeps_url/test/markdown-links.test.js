import { test } from "node:test";
import assert from "node:assert/strict";
import { renderInline, renderMarkdown } from "../src/markdown.js";

test("javascript: links are shown as text", () => {
  assert.ok(renderInline("[click me](javascript:void0)").startsWith("click me"));
  assert.ok(!renderMarkdown("[click me](javascript:alert(document.cookie))").includes("<a"));
});

test("links to other schemes are shown as text", () => {
  assert.ok(!renderInline("[click me](ftp://example.com/f)").includes("<a"));
  assert.ok(!renderInline("[x](data:text/html,hi)").includes("<a"));
});

test("http, https, mailto and site links stay links", () => {
  assert.equal(renderInline("[docs](https://example.com/docs)"),
    '<a href="https://example.com/docs" rel="nofollow noopener">docs</a>');
  assert.equal(renderInline("[home](http://example.com)"), '<a href="http://example.com" rel="nofollow noopener">home</a>');
  assert.equal(renderInline("[mail](mailto:ann@example.com)"), '<a href="mailto:ann@example.com" rel="nofollow noopener">mail</a>');
  assert.equal(renderInline("[issue](/issues/3)"), '<a href="/issues/3" rel="nofollow noopener">issue</a>');
  assert.equal(renderInline("[top](#top)"), '<a href="#top" rel="nofollow noopener">top</a>');
});
