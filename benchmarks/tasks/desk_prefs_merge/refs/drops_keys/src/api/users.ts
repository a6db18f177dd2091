// /api/me: who the token belongs to, and their preferences (the web client's settings:
// {"theme": "dark", "calendar": {"weekStart": "monday", "hours": {"from": 8}}}).

import { currentUser } from "../auth.js";
import { badRequest, isObject, json, readJson } from "../http.js";
import type { Router } from "../router.js";
import { ForbiddenKeyError, mergePreferences } from "../preferences.js";
import type { PrefObject } from "../types.js";
import type { Context } from "./context.js";

export function userRoutes(router: Router, ctx: Context): void {
  const { store } = ctx;

  router.add("GET", "/api/me", (request) => {
    const { preferences: _, ...user } = currentUser(store, request);
    return json(200, user);
  });

  router.add("GET", "/api/me/preferences", (request) => {
    return json(200, currentUser(store, request).preferences);
  });

  // Replaces every preference at once.
  router.add("PUT", "/api/me/preferences", (request) => {
    const user = currentUser(store, request);
    const body = readJson(request);
    if (!isObject(body)) throw badRequest("preferences must be a JSON object");
    return json(200, store.setPreferences(user.id, body as PrefObject).preferences);
  });

  // Merges the body into the stored preferences (see src/preferences.ts).
  router.add("PATCH", "/api/me/preferences", (request) => {
    const user = currentUser(store, request);
    const body = readJson(request);
    if (!isObject(body)) throw badRequest("preferences must be a JSON object");
    let merged: PrefObject;
    try {
      merged = mergePreferences(user.preferences, body as PrefObject);
    } catch (error) {
      if (error instanceof ForbiddenKeyError) throw badRequest(error.message);
      throw error;
    }
    return json(200, store.setPreferences(user.id, merged).preferences);
  });
}
