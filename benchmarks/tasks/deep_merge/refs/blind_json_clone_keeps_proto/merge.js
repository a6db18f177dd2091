"use strict";

// Merge a user's uploaded JSON settings over the defaults.

// Keys that could reach or replace a prototype; never copied.
const BLOCKED = new Set(["__proto__", "constructor", "prototype"]);

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// A deep copy of a JSON value, without blocked keys.
function copy(value) {
  if (Array.isArray(value)) return value.map(copy);
  if (isPlainObject(value)) {
    const out = {};
    for (const key of Object.keys(value)) {
      if (BLOCKED.has(key)) continue;
      out[key] = copy(value[key]);
    }
    return out;
  }
  return value;
}

function merge(defaults, overrides) {
  const out = copy(defaults);
  for (const key of Object.keys(overrides)) {
    if (BLOCKED.has(key)) continue;
    const value = overrides[key];
    if (isPlainObject(value) && isPlainObject(defaults[key]) && Object.prototype.hasOwnProperty.call(defaults, key)) {
      out[key] = merge(defaults[key], value);
    } else {
      // JSON values only: a JSON round trip is the simplest deep copy
      out[key] = value !== null && typeof value === "object" ? JSON.parse(JSON.stringify(value)) : value;
    }
  }
  return out;
}

function deepMerge(defaults, overrides) {
  if (!isPlainObject(defaults)) throw new TypeError("defaults must be a plain object");
  if (overrides === undefined || overrides === null) return copy(defaults);
  if (!isPlainObject(overrides)) throw new TypeError("overrides must be a plain object");
  return merge(defaults, overrides);
}

module.exports = { deepMerge };
