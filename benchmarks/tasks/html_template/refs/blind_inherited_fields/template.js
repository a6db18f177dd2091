function escapeHtml(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function get(data, path) {
  return path.split(".").reduce((obj, key) => (obj == null ? undefined : obj[key]), data);
}

function render(template, data) {
  return template.replace(/(\{\{\{)\s*([A-Za-z0-9_.]+)\s*\}\}\}|\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g, (m, triple, rawPath, path) => {
    const value = get(data, triple ? rawPath : path);
    const text = value == null ? "" : String(value);
    return triple ? text : escapeHtml(text);
  });
}

module.exports = { render };
