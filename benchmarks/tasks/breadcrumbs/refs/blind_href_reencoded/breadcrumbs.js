"use strict";
// The breadcrumb trail at the top of the file browser's pages.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe inside an element or a quoted attribute. */
function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

/** A segment percent-decoded as UTF-8, or as it is when it cannot be decoded. */
function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function breadcrumbs(path) {
  const segments = String(path).split("/").filter((s) => s !== "");
  const links = ['<a href="/">Home</a>'];
  for (let i = 0; i < segments.length; i++) {
    // Build the link from the decoded segments, encoded again so it is always a valid URL.
    const href = "/" + segments.slice(0, i + 1).map((s) => encodeURIComponent(decodeSegment(s))).join("/");
    links.push(`<a href="${escapeHtml(href)}">${escapeHtml(decodeSegment(segments[i]))}</a>`);
  }
  return links.join(" / ");
}

module.exports = { breadcrumbs };
