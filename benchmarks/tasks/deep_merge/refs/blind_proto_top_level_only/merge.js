"use strict";

// Merge a user's uploaded JSON settings over the defaults.

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function clone(value) {
  if (Array.isArray(value)) return value.map(clone);
  if (isObject(value)) {
    const out = {};
    for (const key of Object.keys(value)) out[key] = clone(value[key]);
    return out;
  }
  return value;
}

// Merge source into target in place.
function mergeInto(target, source) {
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (isObject(value) && isObject(target[key])) {
      mergeInto(target[key], value);
    } else {
      target[key] = clone(value);
    }
  }
  return target;
}

function deepMerge(defaults, overrides) {
  const result = clone(defaults);
  const safe = {};
  for (const key of Object.keys(overrides || {})) {
    // never let an uploaded file touch the prototype
    if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
    safe[key] = overrides[key];
  }
  return mergeInto(result, safe);
}

module.exports = { deepMerge };
