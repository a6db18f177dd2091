"use strict";

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// A deep copy of a JSON value, without any "__proto__" key.
function copy(value) {
  if (Array.isArray(value)) return value.map(copy);
  if (isPlainObject(value)) return deepMerge({}, value);
  return value;
}

function deepMerge(defaults, overrides) {
  const result = {};
  for (const source of [defaults, overrides]) {
    for (const key of Object.keys(source)) {
      // "__proto__" is the one key whose assignment sets a prototype instead of a property.
      if (key === "__proto__") continue;
      const value = source[key];
      // Only merge into what we put there ourselves: result.constructor is inherited from
      // Object.prototype, and merging into it would reach Object.prototype itself.
      if (isPlainObject(value) && Object.hasOwn(result, key) && isPlainObject(result[key])) {
        result[key] = deepMerge(result[key], value);
      } else {
        result[key] = copy(value);
      }
    }
  }
  return result;
}

module.exports = { deepMerge };
