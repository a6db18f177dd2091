// PATCH /api/me/preferences: the patch merged into the stored preferences. Every object built
// here has no prototype at all, and a key that names one is refused on sight.

import { badRequest } from "./http.js";
import type { PrefObject, PrefValue } from "./types.js";

const REFUSED = ["__proto__", "constructor", "prototype"];

function plain(value: PrefValue | undefined): value is PrefObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function check(value: PrefValue): void {
  if (Array.isArray(value)) {
    value.forEach(check);
    return;
  }
  if (!plain(value)) return;
  for (const key of Object.keys(value)) {
    if (REFUSED.includes(key)) throw badRequest(`preference key ${key} is not allowed`);
    check(value[key] as PrefValue);
  }
}

function copy(value: PrefValue): PrefValue {
  if (Array.isArray(value)) return value.map(copy);
  if (!plain(value)) return value;
  const out: PrefObject = Object.create(null) as PrefObject;
  for (const key of Object.keys(value)) {
    const inner = value[key] as PrefValue;
    if (inner !== null) out[key] = copy(inner);
  }
  return out;
}

export function mergePreferences(current: PrefObject, patch: PrefObject): PrefObject {
  check(patch);
  const out = copy(current) as PrefObject;
  for (const key of Object.keys(patch)) {
    const next = patch[key] as PrefValue;
    const have = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
    if (next === null) delete out[key];
    else if (plain(have) && plain(next)) out[key] = mergePreferences(have, next);
    else out[key] = copy(next);
  }
  return out;
}
