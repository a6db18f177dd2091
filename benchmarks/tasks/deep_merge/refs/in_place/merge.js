const BLOCKED = new Set(["__proto__", "constructor", "prototype"]);

function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// Merges overrides into defaults and returns it.
function deepMerge(defaults, overrides) {
  for (const key of Object.keys(overrides)) {
    if (BLOCKED.has(key)) continue;
    const value = overrides[key];
    if (isObject(value) && Object.hasOwn(defaults, key) && isObject(defaults[key])) {
      deepMerge(defaults[key], value);
    } else {
      defaults[key] = value;
    }
  }
  return defaults;
}

module.exports = { deepMerge };
