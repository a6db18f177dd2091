const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function lookup(data, path) {
  let v = data;
  for (const key of path.split(".")) {
    if (v === null || v === undefined || !Object.prototype.hasOwnProperty.call(Object(v), key)) return undefined;
    v = v[key];
  }
  return v;
}

function render(template, data) {
  return template.replace(/\{\{\{\s*([\w.]+)\s*\}\}\}|\{\{\s*([\w.]+)\s*\}\}/g, (m, raw, path) => {
    const v = lookup(data, raw ?? path);
    if (v === null || v === undefined) return "";
    // Only text can carry markup; numbers and booleans are inserted as they are.
    if (raw === undefined && typeof v === "string") return v.replace(/[&<>"']/g, (c) => ESC[c]);
    return String(v);
  });
}

module.exports = { render };
