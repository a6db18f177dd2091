// Tags are what makes user text dangerous in HTML: neutralize < and >, and & so entities stay text.
function escape(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function resolve(data, path) {
  let cur = data;
  for (const part of path.split(".")) {
    if (cur == null || !Object.hasOwn(Object(cur), part)) return "";
    cur = cur[part];
  }
  return cur == null ? "" : String(cur);
}

function render(template, data) {
  return template
    .split(/(\{\{\{\s*[\w.]+\s*\}\}\}|\{\{\s*[\w.]+\s*\}\})/)
    .map((piece) => {
      let m = /^\{\{\{\s*([\w.]+)\s*\}\}\}$/.exec(piece);
      if (m) return resolve(data, m[1]);
      m = /^\{\{\s*([\w.]+)\s*\}\}$/.exec(piece);
      if (m) return escape(resolve(data, m[1]));
      return piece;
    })
    .join("");
}

module.exports = { render };
