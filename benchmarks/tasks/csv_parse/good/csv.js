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
        if (i >= n) throw new SyntaxError("a quoted field is never closed");
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
      if (i < n && text[i] !== "," && text[i] !== "\n" && !(text[i] === "\r" && text[i + 1] === "\n")) {
        throw new SyntaxError(`unexpected ${JSON.stringify(text[i])} after a closing quote at offset ${i}`);
      }
    } else {
      while (i < n && text[i] !== "," && text[i] !== "\n" && !(text[i] === "\r" && text[i + 1] === "\n")) {
        if (text[i] === '"') throw new SyntaxError(`a quote inside an unquoted field at offset ${i}`);
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
