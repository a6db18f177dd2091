// Merging a partial update into a user's preferences (PATCH /api/me/preferences).

import type { PrefObject, PrefValue } from "./types.js";

/** Keys that could reach an object's prototype: never accepted from a client. */
export const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

const isPrefObject = (value: unknown): value is PrefObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `patch` merged into `current`, as a new object: objects on both sides are merged key by key,
 * anything else in the patch replaces the stored value, and a null deletes the key.
 */
export function mergePreferences(current: PrefObject, patch: PrefObject): PrefObject {
  const result: PrefObject = { ...current };
  for (const key of Object.keys(patch)) {
    const value = patch[key] as PrefValue;
    const stored = result[key];
    if (value === null) {
      delete result[key];
    } else if (isPrefObject(value)) {
      result[key] = mergePreferences(isPrefObject(stored) ? stored : {}, value);
    } else {
      result[key] = Array.isArray(value) ? [...value] : value;
    }
  }
  return result;
}
