function isObject(item) {
  return item && typeof item === "object" && !Array.isArray(item);
}

function mergeInto(target, source) {
  for (const key in source) {
    if (!Object.prototype.hasOwnProperty.call(source, key)) continue; // no inherited keys
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
