// Parses line by line; quoted fields may contain commas and "" quotes.
function parseLine(line) {
  const fields = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { field += '"'; i++; }
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') {
      if (field !== "") throw new SyntaxError(`stray quote in ${line}`);
      quoted = true;
    } else if (ch === ",") {
      fields.push(field);
      field = "";
    } else {
      if (field !== "" && line[i - 1] === '"') throw new SyntaxError(`text after a closing quote in ${line}`);
      field += ch;
    }
  }
  if (quoted) throw new SyntaxError(`unclosed quote in ${line}`);
  fields.push(field);
  return fields;
}

function parseCsv(text) {
  text = text.replace(/^\uFEFF/, "");
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map(parseLine);
}

module.exports = { parseCsv };
