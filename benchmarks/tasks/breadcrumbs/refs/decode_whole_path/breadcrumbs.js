"use strict";

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);

function breadcrumbs(path) {
  let decoded;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    decoded = path;
  }
  const names = decoded.split("/").filter(Boolean);
  const links = ['<a href="/">Home</a>'];
  names.forEach((name, i) => {
    const href = "/" + names.slice(0, i + 1).map(encodeURIComponent).join("/");
    links.push(`<a href="${escapeHtml(href)}">${escapeHtml(name)}</a>`);
  });
  return links.join(" / ");
}

module.exports = { breadcrumbs };
