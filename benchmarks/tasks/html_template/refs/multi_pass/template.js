// Escaped placeholders first, then the raw ones.
function escapeHtml(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function get(data, path) {
  const value = path.split(".").reduce((v, k) => (v === null || v === undefined ? undefined : v[k]), data);
  return value === null || value === undefined ? "" : String(value);
}

function render(template, data) {
  return template
    .replace(/(?<!\{)\{\{\s*([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\s*\}\}(?!\})/g, (_, p) => escapeHtml(get(data, p)))
    .replace(/\{\{\{\s*([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\s*\}\}\}/g, (_, p) => get(data, p));
}

module.exports = { render };
