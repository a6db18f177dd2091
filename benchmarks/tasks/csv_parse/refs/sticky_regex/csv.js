// One sticky regular expression per field: a quoted or a bare field, then what ends it.
const FIELD = /(?:"((?:[^"]|"")*)"|([^",\r\n]*))(,|\r\n|\n|$)/y;

function parseCsv(text) {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows = [];
  if (src === "") return rows;
  let row = [];
  FIELD.lastIndex = 0;
  for (;;) {
    const at = FIELD.lastIndex;
    const m = FIELD.exec(src);
    if (!m) {
      const rest = src.slice(at);
      throw new SyntaxError(rest.startsWith('"') ? "unclosed or malformed quoted field" : `stray quote at ${at}`);
    }
    row.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);
    const end = m[3];
    if (end === ",") continue;
    rows.push(row);
    row = [];
    if (end === "" || FIELD.lastIndex >= src.length) return rows;
  }
}

module.exports = { parseCsv };
