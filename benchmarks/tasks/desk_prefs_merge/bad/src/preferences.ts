// Merging a patch into a user's preferences (PATCH /api/me/preferences).

import type { PrefObject, PrefValue } from "./types.js";

const isPrefObject = (value: PrefValue | undefined): value is PrefObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function deepMerge(target: PrefObject, patch: PrefObject): void {
  for (const key of Object.keys(patch)) {
    const value = patch[key] as PrefValue;
    if (value === null) {
      delete target[key];
      continue;
    }
    const existing = target[key];
    if (isPrefObject(existing) && isPrefObject(value)) {
      deepMerge(existing, value);
    } else if (isPrefObject(value)) {
      const fresh: PrefObject = {};
      deepMerge(fresh, value);
      target[key] = fresh;
    } else {
      target[key] = structuredClone(value);
    }
  }
}

/** `patch` merged into a copy of `current`: objects merge key by key, other values replace, null deletes. */
export function mergePreferences(current: PrefObject, patch: PrefObject): PrefObject {
  const out = structuredClone(current);
  deepMerge(out, patch);
  return out;
}
