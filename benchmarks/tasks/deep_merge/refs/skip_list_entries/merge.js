// Settings merge for uploaded JSON. Keys that can reach a prototype are skipped outright.
const FORBIDDEN = ["__proto__", "constructor", "prototype"];

const isObject = (v) => Object.prototype.toString.call(v) === "[object Object]";

function clone(v) {
  if (Array.isArray(v)) return v.map(clone);
  if (isObject(v)) {
    const out = {};
    for (const [k, x] of Object.entries(v)) {
      if (!FORBIDDEN.includes(k)) out[k] = clone(x);
    }
    return out;
  }
  return v;
}

function deepMerge(defaults, overrides) {
  const out = clone(defaults);
  for (const [key, value] of Object.entries(overrides)) {
    if (FORBIDDEN.includes(key)) continue;
    out[key] = isObject(value) && isObject(out[key]) ? deepMerge(out[key], value) : clone(value);
  }
  return out;
}

module.exports = { deepMerge };
