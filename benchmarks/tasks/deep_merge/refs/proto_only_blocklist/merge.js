function isObject(item) {
  return item && typeof item === "object" && !Array.isArray(item);
}

function mergeInto(target, source) {
  for (const key in source) {
    if (key === "__proto__") continue; // prototype pollution
    if (isObject(source[key])) {
      if (!target[key]) target[key] = {};
      mergeInto(target[key], source[key]);
    } else if (Array.isArray(source[key])) {
      target[key] = structuredClone(source[key]);
    } else {
      target[key] = source[key];
    }
  }
  return target;
}

function deepMerge(defaults, overrides) {
  return mergeInto(mergeInto({}, defaults), overrides);
}

module.exports = { deepMerge };
