// Merging a partial update into a user's preferences (PATCH /api/me/preferences).

import type { PrefObject, PrefValue } from "./types.js";

/** Keys that could reach an object's prototype: never accepted from a client. */
export const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

const isPrefObject = (value: unknown): value is PrefObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The first forbidden key anywhere in a value (objects and arrays, at any depth), or null. */
export function findForbiddenKey(value: unknown): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findForbiddenKey(item);
      if (found !== null) return found;
    }
    return null;
  }
  if (isPrefObject(value)) {
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return key;
      const found = findForbiddenKey(value[key]);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * `patch` merged into `current`, as a new object: objects on both sides are merged key by key,
 * anything else in the patch replaces the stored value, and a null deletes the key.
 */
export function mergePreferences(current: PrefObject, patch: PrefObject): PrefObject {
  const result: PrefObject = {};
  for (const [key, value] of Object.entries(current)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    result[key] = structuredClone(value);
  }
  for (const [key, value] of Object.entries(patch)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    const stored = result[key];
    if (value === null) {
      delete result[key];
    } else if (isPrefObject(value) && isPrefObject(stored)) {
      result[key] = mergePreferences(stored, value);
    } else {
      result[key] = structuredClone(value);
    }
  }
  return result;
}
