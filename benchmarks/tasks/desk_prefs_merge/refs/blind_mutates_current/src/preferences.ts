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

/** Merge `patch` into `target` in place: objects key by key, null deletes, anything else replaces. */
function mergeInto(target: PrefObject, patch: PrefObject): void {
  for (const [key, value] of Object.entries(patch)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    const stored = Object.prototype.hasOwnProperty.call(target, key) ? target[key] : undefined;
    if (value === null) {
      delete target[key];
    } else if (isPrefObject(value) && isPrefObject(stored)) {
      mergeInto(stored, value);
    } else if (isPrefObject(value)) {
      const fresh: PrefObject = {};
      mergeInto(fresh, value);
      target[key] = fresh;
    } else {
      target[key] = Array.isArray(value) ? structuredClone(value) : value;
    }
  }
}

/**
 * `patch` merged into `current`, as a new object: objects on both sides are merged key by key,
 * anything else in the patch replaces the stored value, and a null deletes the key.
 */
export function mergePreferences(current: PrefObject, patch: PrefObject): PrefObject {
  const result: PrefObject = { ...current };
  mergeInto(result, patch);
  return result;
}
