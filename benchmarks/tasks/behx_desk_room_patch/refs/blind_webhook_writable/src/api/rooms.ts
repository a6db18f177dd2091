// /api/rooms: the rooms, their day's bookings and their webhooks.

import { currentUser, requireAdmin } from "../auth.js";
import { badRequest, isObject, json, notFound, parseUrl, readJson, type AppRequest } from "../http.js";
import { idParam, type Params, type Router } from "../router.js";
import { MINUTES_PER_DAY, parseClock, parseDate, parseDateTime } from "../time.js";
import { checkWebhookUrl } from "../webhooks.js";
import type { RoomChanges } from "../store.js";
import type { Context } from "./context.js";

export function roomRoutes(router: Router, ctx: Context): void {
  const { store } = ctx;

  router.add("GET", "/api/rooms", (request) => {
    currentUser(store, request);
    return json(200, store.listRooms().map(({ webhook: _, ...room }) => room));
  });

  router.add("POST", "/api/rooms", (request) => {
    requireAdmin(currentUser(store, request));
    const body = readJson(request);
    if (!isObject(body)) throw badRequest("the body must be a JSON object");
    const { name, capacity, opens = "08:00", closes = "18:00" } = body;
    if (typeof name !== "string" || !name.trim()) throw badRequest("name must be a non-empty string");
    if (typeof capacity !== "number" || !Number.isInteger(capacity) || capacity < 1) {
      throw badRequest("capacity must be a positive integer");
    }
    if (typeof opens !== "string" || typeof closes !== "string") throw badRequest("opens and closes must be HH:MM");
    const from = parseClock(opens);
    const to = parseClock(closes);
    if (from === null || to === null || to <= from) throw badRequest("opens and closes must be HH:MM, opens first");
    return json(201, store.addRoom({ name: name.trim(), capacity, opens, closes }));
  });

  router.add("GET", "/api/rooms/:id", (request, params) => {
    currentUser(store, request);
    const room = store.getRoom(idParam(params));
    if (!room) throw notFound("no such room");
    const { webhook: _, ...visible } = room;
    return json(200, visible);
  });

  // Change some fields of a room: { name?, capacity?, opens?, closes? }, each checked as on create.
  router.add("PATCH", "/api/rooms/:id", (request, params) => {
    requireAdmin(currentUser(store, request));
    const room = store.getRoom(idParam(params));
    if (!room) throw notFound("no such room");
    const body = readJson(request);
    if (!isObject(body)) throw badRequest("the body must be a JSON object");
    const keys = Object.keys(body);
    if (keys.length === 0) throw badRequest("the body must change at least one field");
    if ("id" in body) throw badRequest("a room's id cannot be changed");
    const changes: RoomChanges = { ...(body as RoomChanges) };
    if ("name" in body) {
      const { name } = body;
      if (typeof name !== "string" || !name.trim()) throw badRequest("name must be a non-empty string");
      changes.name = name.trim();
    }
    if ("capacity" in body) {
      const { capacity } = body;
      if (typeof capacity !== "number" || !Number.isInteger(capacity) || capacity < 1) {
        throw badRequest("capacity must be a positive integer");
      }
      changes.capacity = capacity;
    }
    for (const field of ["opens", "closes"] as const) {
      if (!(field in body)) continue;
      const value = body[field];
      if (typeof value !== "string" || parseClock(value) === null) throw badRequest(`${field} must be HH:MM`);
      changes[field] = value;
    }
    const from = parseClock(changes.opens ?? room.opens);
    const to = parseClock(changes.closes ?? room.closes);
    if (from === null || to === null || to <= from) throw badRequest("the room must open before it closes");
    const { webhook: _, ...visible } = store.updateRoom(room.id, changes);
    return json(200, visible);
  });

  // The active bookings of one day: ?date=YYYY-MM-DD
  router.add("GET", "/api/rooms/:id/bookings", (request: AppRequest, params: Params) => {
    currentUser(store, request);
    const room = store.getRoom(idParam(params));
    if (!room) throw notFound("no such room");
    const date = parseUrl(request.url).query.get("date") ?? "";
    const day = parseDate(date);
    if (day === null) throw badRequest("date must be YYYY-MM-DD");
    const onDay = store.listBookings({ roomId: room.id }).filter((b) => {
      const start = parseDateTime(b.start) ?? 0;
      return b.status === "active" && start >= day && start < day + MINUTES_PER_DAY;
    });
    return json(200, onDay);
  });

  router.add("PUT", "/api/rooms/:id/webhook", (request, params) => {
    requireAdmin(currentUser(store, request));
    const room = store.getRoom(idParam(params));
    if (!room) throw notFound("no such room");
    const body = readJson(request);
    if (!isObject(body) || !("url" in body)) throw badRequest('the body must be {"url": ...}');
    if (body.url === null) return json(200, store.setWebhook(room.id, null));
    const url = typeof body.url === "string" ? checkWebhookUrl(body.url) : null;
    if (!url) throw badRequest("url is not an acceptable webhook URL");
    return json(200, store.setWebhook(room.id, url.href));
  });
}
