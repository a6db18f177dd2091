"use strict";

// RFC 4180 CSV parser for spreadsheet exports.

function isBreak(text, i) {
  return text[i] === "\n" || (text[i] === "\r" && text[i + 1] === "\n");
}

function parseCsv(text) {
  if (typeof text !== "string") throw new TypeError("parseCsv expects a string");
  const records = [];
  if (text === "") return records;
  const n = text.length;
  let record = [];
  let i = 0;
  for (;;) {
    let field = "";
    if (text[i] === '"') {
      i++;
      let closed = false;
      while (i < n) {
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          closed = true;
          i++;
          break;
        }
        field += text[i++];
      }
      if (!closed) throw new SyntaxError("quoted field is never closed");
      if (i < n && text[i] !== "," && !isBreak(text, i)) {
        throw new SyntaxError(`unexpected character after closing quote at ${i}`);
      }
    } else {
      while (i < n && text[i] !== "," && !isBreak(text, i)) {
        if (text[i] === '"') throw new SyntaxError(`quote inside an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    record.push(field);
    if (i >= n) {
      records.push(record);
      break;
    }
    if (text[i] === ",") {
      i++;
      continue;
    }
    i += text[i] === "\r" ? 2 : 1;
    records.push(record);
    record = [];
    if (i >= n) break;
  }
  return records;
}

module.exports = { parseCsv };
