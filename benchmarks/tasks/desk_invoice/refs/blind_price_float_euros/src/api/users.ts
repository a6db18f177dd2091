// /api/me: who the token belongs to, and their preferences (the web client's settings:
// {"theme": "dark", "calendar": {"weekStart": "monday", "hours": {"from": 8}}}).

import { currentUser } from "../auth.js";
import { badRequest, isObject, json, parseUrl, readJson } from "../http.js";
import { monthlyInvoice, parseMonth } from "../invoice.js";
import type { Router } from "../router.js";
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

  // What the caller's bookings of a month cost: ?month=YYYY-MM
  router.add("GET", "/api/me/invoice", (request) => {
    const user = currentUser(store, request);
    const month = parseMonth(parseUrl(request.url).query.get("month") ?? "");
    if (month === null) throw badRequest("month must be YYYY-MM");
    return json(200, monthlyInvoice(store, user.id, month, ctx.config.hourlyRateCents));
  });

  // Replaces every preference at once.
  router.add("PUT", "/api/me/preferences", (request) => {
    const user = currentUser(store, request);
    const body = readJson(request);
    if (!isObject(body)) throw badRequest("preferences must be a JSON object");
    return json(200, store.setPreferences(user.id, body as PrefObject).preferences);
  });
}
