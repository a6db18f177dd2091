// A small scanner instead of one regular expression.
const NAME = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

function escape(value) {
  let out = "";
  for (const ch of value) {
    switch (ch) {
      case "&": out += "&amp;"; break;
      case "<": out += "&lt;"; break;
      case ">": out += "&gt;"; break;
      case '"': out += "&#34;"; break;
      case "'": out += "&#x27;"; break;
      default: out += ch;
    }
  }
  return out;
}

function valueAt(data, path) {
  let cur = data;
  for (const key of path.split(".")) {
    if (cur == null || !Object.hasOwn(Object(cur), key)) return "";
    cur = cur[key];
  }
  return cur == null ? "" : String(cur);
}

function render(template, data) {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{{", i);
    if (open === -1) break;
    const raw = template.startsWith("{{{", open);
    const close = template.indexOf(raw ? "}}}" : "}}", open + (raw ? 3 : 2));
    const path = close === -1 ? null : template.slice(open + (raw ? 3 : 2), close).trim();
    if (path === null || !NAME.test(path)) {
      out += template.slice(i, open + 1);
      i = open + 1;
      continue;
    }
    const value = valueAt(data, path);
    out += template.slice(i, open) + (raw ? value : escape(value));
    i = close + (raw ? 3 : 2);
  }
  return out + template.slice(i);
}

module.exports = { render };
