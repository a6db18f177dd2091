"use strict";
// The breadcrumb trail at the top of the file browser's pages.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe inside an element or a quoted attribute. */
function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

function breadcrumbs(path) {
  const segments = String(path).split("/").filter((s) => s !== "");
  // Decode the path once; if it cannot be decoded, show every segment as it is.
  let texts;
  try {
    texts = segments.map((s) => decodeURIComponent(s));
  } catch {
    texts = segments;
  }
  const links = ['<a href="/">Home</a>'];
  for (let i = 0; i < segments.length; i++) {
    const href = "/" + segments.slice(0, i + 1).join("/");
    links.push(`<a href="${escapeHtml(href)}">${escapeHtml(texts[i])}</a>`);
  }
  return links.join(" / ");
}

module.exports = { breadcrumbs };
