const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

function clone(value) {
  if (Array.isArray(value)) return value.map(clone);
  if (isObject(value)) {
    const out = {};
    for (const key of Object.keys(value)) out[key] = clone(value[key]);
    return out;
  }
  return value;
}

function deepMerge(defaults, overrides) {
  const out = clone(defaults);
  for (const key of Object.keys(overrides)) {
    if (key === "__proto__") continue; // no prototype pollution
    const value = overrides[key];
    out[key] = isObject(value) && Object.hasOwn(out, key) && isObject(out[key])
      ? deepMerge(out[key], value)
      : clone(value);
  }
  return out;
}

module.exports = { deepMerge };
