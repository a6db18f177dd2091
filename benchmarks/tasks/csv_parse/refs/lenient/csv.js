"use strict";

function parseCsv(text) {
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const records = [];
  let record = [];
  let field = "";
  let i = 0;
  const n = text.length;
  if (n === 0) return records;
  for (;;) {
    // at the start of a field
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= n) break;
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
      // be forgiving: keep whatever follows the closing quote
      while (i < n && text[i] !== "," && text[i] !== "\n" && !(text[i] === "\r" && text[i + 1] === "\n")) field += text[i++];
    } else {
      while (i < n && text[i] !== "," && text[i] !== "\n" && !(text[i] === "\r" && text[i + 1] === "\n")) {
        field += text[i++];
      }
    }
    record.push(field);
    field = "";
    if (i >= n) {
      records.push(record);
      return records;
    }
    if (text[i] === ",") {
      i++;
      continue;
    }
    i += text[i] === "\r" ? 2 : 1; // the line break
    records.push(record);
    record = [];
    if (i >= n) return records;
  }
}

module.exports = { parseCsv };
