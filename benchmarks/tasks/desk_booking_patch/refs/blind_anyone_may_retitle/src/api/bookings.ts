// /api/bookings: booking a room, reading a booking, cancelling it; /api/me/bookings.

import { canManage, currentUser } from "../auth.js";
import { checkSlot, conflicts, createBooking, parseBookingInput } from "../bookings.js";
import { badRequest, conflict, forbidden, isObject, json, notFound, readJson } from "../http.js";
import { parseDateTime } from "../time.js";
import { idParam, type Router } from "../router.js";
import type { Context } from "./context.js";

/** The fields a PATCH may change, each checked as when booking (400 on the first problem). */
function parseChanges(body: unknown): { title?: string; start?: string; end?: string } {
  if (!isObject(body)) throw badRequest("the body must be a JSON object");
  const keys = Object.keys(body);
  const unknown = keys.find((k) => k !== "title" && k !== "start" && k !== "end");
  if (unknown !== undefined) throw badRequest(`${unknown} cannot be changed`);
  if (keys.length === 0) throw badRequest("nothing to change: send title, start or end");
  const changes: { title?: string; start?: string; end?: string } = {};
  if ("title" in body) {
    const { title } = body;
    if (typeof title !== "string" || !title.trim()) throw badRequest("title must be a non-empty string");
    if (title.length > 120) throw badRequest("title must be at most 120 characters");
    changes.title = title.trim();
  }
  if ("start" in body) {
    const { start } = body;
    if (typeof start !== "string" || parseDateTime(start) === null) throw badRequest("start must be YYYY-MM-DDTHH:MM");
    changes.start = start;
  }
  if ("end" in body) {
    const { end } = body;
    if (typeof end !== "string" || parseDateTime(end) === null) throw badRequest("end must be YYYY-MM-DDTHH:MM");
    changes.end = end;
  }
  return changes;
}

export function bookingRoutes(router: Router, ctx: Context): void {
  const { store, config, notifier } = ctx;

  router.add("POST", "/api/bookings", async (request) => {
    const user = currentUser(store, request);
    const booking = createBooking(store, config, user.id, parseBookingInput(readJson(request)));
    const room = store.getRoom(booking.roomId);
    if (room) await notifier.notify(room, "booking.created", booking);
    return json(201, booking);
  });

  router.add("GET", "/api/bookings/:id", (request, params) => {
    currentUser(store, request);
    const booking = store.getBooking(idParam(params));
    if (!booking) throw notFound("no such booking");
    return json(200, booking);
  });

  // Cancelling keeps the booking (status "cancelled") for the usage report's history.
  router.add("DELETE", "/api/bookings/:id", async (request, params) => {
    const user = currentUser(store, request);
    const booking = store.getBooking(idParam(params));
    if (!booking) throw notFound("no such booking");
    if (!canManage(user, booking.userId)) throw forbidden("only its owner or an admin may cancel a booking");
    if (booking.status === "cancelled") throw badRequest("the booking is already cancelled");
    const cancelled = store.updateBooking(booking.id, { status: "cancelled" });
    const room = store.getRoom(booking.roomId);
    if (room) await notifier.notify(room, "booking.cancelled", cancelled);
    return json(200, cancelled);
  });

  // Moving or renaming a booking in place: its owner or an admin, only title, start and end.
  router.add("PATCH", "/api/bookings/:id", async (request, params) => {
    const user = currentUser(store, request);
    const booking = store.getBooking(idParam(params));
    if (!booking) throw notFound("no such booking");
    if (booking.status === "cancelled") throw badRequest("a cancelled booking cannot be changed");
    const changes = parseChanges(readJson(request));
    // Moving it frees or takes a slot: only its owner or an admin. A new title is harmless.
    if ((changes.start !== undefined || changes.end !== undefined) && !canManage(user, booking.userId)) {
      throw forbidden("only its owner or an admin may move a booking");
    }
    const start = changes.start ?? booking.start;
    const end = changes.end ?? booking.end;
    const room = store.getRoom(booking.roomId);
    if (!room) throw notFound("no such room");
    checkSlot(room, start, end, config);
    const clash = conflicts(store, room.id, start, end, booking.id).filter((b) => b.status === "active");
    if (clash.length > 0) throw conflict(`${room.name} is already booked then (booking ${clash[0]?.id})`);
    const changed = store.updateBooking(booking.id, changes);
    await notifier.notify(room, "booking.changed", changed);
    return json(200, changed);
  });

  router.add("GET", "/api/me/bookings", (request) => {
    const user = currentUser(store, request);
    return json(200, store.listBookings({ userId: user.id }).filter((b) => b.status === "active"));
  });
}
