"use strict";

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a stray % or bytes that are not UTF-8: shown as they are
  }
}

function breadcrumbs(path) {
  const segments = String(path).split("/").filter((s) => s !== "");
  const links = ['<a href="/">Home</a>'];
  segments.forEach((segment, i) => {
    const href = "/" + segments.slice(0, i + 1).join("/");
    links.push(`<a href="${href}">${escapeHtml(decodeSegment(segment))}</a>`);
  });
  return links.join(" / ");
}

module.exports = { breadcrumbs };
