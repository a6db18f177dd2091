// Merging a patch into a user's preferences (PATCH /api/me/preferences).

import type { PrefObject, PrefValue } from "./types.js";

const isObj = (v: PrefValue | undefined): v is PrefObject => typeof v === "object" && v !== null && !Array.isArray(v);

const clean = (v: PrefValue): PrefValue => (isObj(v) ? mergePreferences({}, v) : v);

export function mergePreferences(current: PrefObject, patch: PrefObject): PrefObject {
  const out: PrefObject = { ...current };
  for (const key in patch) {
    const value = patch[key] as PrefValue;
    if (value === null) delete out[key];
    else out[key] = isObj(out[key]) && isObj(value) ? mergePreferences(out[key] as PrefObject, value) : clean(value);
  }
  return out;
}
