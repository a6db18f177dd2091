// Merging a patch into a user's preferences (PATCH /api/me/preferences). The patch comes from the
// browser: its keys are data, and a key that names a prototype is refused before anything is
// merged, so no merge ever walks into one.

import type { PrefObject, PrefValue } from "./types.js";

/** Keys that would reach a prototype when used as a property name. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export class ForbiddenKeyError extends Error {
  constructor(readonly key: string) {
    super(`the key ${JSON.stringify(key)} is not allowed in preferences`);
    this.name = "ForbiddenKeyError";
  }
}

const isPrefObject = (value: PrefValue | undefined): value is PrefObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The first forbidden key anywhere in the value, or null. */
export function forbiddenKey(value: PrefValue): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = forbiddenKey(item);
      if (found !== null) return found;
    }
  } else if (isPrefObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(key)) return key;
      const found = forbiddenKey(inner);
      if (found !== null) return found;
    }
  }
  return null;
}

/** A deep copy with the nulls dropped (what a patch stores where nothing is merged into). */
function stored(value: PrefValue): PrefValue {
  if (Array.isArray(value)) return structuredClone(value);
  if (!isPrefObject(value)) return value;
  return merge({}, value);
}

function merge(current: PrefObject, patch: PrefObject): PrefObject {
  const out: PrefObject = {};
  for (const [key, value] of Object.entries(current)) {
    out[key] = structuredClone(value);
  }
  for (const [key, value] of Object.entries(patch)) {
    if (FORBIDDEN_KEYS.has(key)) continue; // never merged
    if (value === null) {
      delete out[key];
      continue;
    }
    const old = Object.hasOwn(out, key) ? out[key] : undefined;
    out[key] = isPrefObject(old) && isPrefObject(value) ? merge(old, value) : stored(value);
  }
  return out;
}

/**
 * `patch` merged into `current`, as a new object: objects on both sides merge key by key, any
 * other value of the patch replaces, null deletes. Throws ForbiddenKeyError for a key named
 * __proto__, constructor or prototype anywhere in the patch (nothing is merged then).
 */
export function mergePreferences(current: PrefObject, patch: PrefObject): PrefObject {
  return merge(current, patch);
}
