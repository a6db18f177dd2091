"use strict";

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const PLACEHOLDER = /\{\{\{\s*([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\s*\}\}\}|\{\{\s*([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\s*\}\}/g;

function escapeHtml(text) {
  return text
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/&/g, "&amp;");
}

function lookup(data, path) {
  let value = data;
  for (const name of path.split(".")) {
    if (value === null || value === undefined || !Object.hasOwn(Object(value), name)) return "";
    value = value[name];
  }
  return value === null || value === undefined ? "" : String(value);
}

// One pass over the template: inserted values are never scanned again.
function render(template, data) {
  return template.replace(PLACEHOLDER, (_, raw, escaped) =>
    raw !== undefined ? lookup(data, raw) : escapeHtml(lookup(data, escaped)));
}

module.exports = { render };
