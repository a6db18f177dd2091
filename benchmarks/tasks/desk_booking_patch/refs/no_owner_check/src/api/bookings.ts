// /api/bookings: booking a room, reading a booking, cancelling it; /api/me/bookings.

import { canManage, currentUser } from "../auth.js";
import { checkSlot, conflicts, createBooking, parseBookingInput } from "../bookings.js";
import { badRequest, conflict, forbidden, isObject, json, notFound, readJson } from "../http.js";
import { parseDateTime } from "../time.js";
import { idParam, type Router } from "../router.js";
import type { Context } from "./context.js";

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

  // Moving or renaming a booking: only title, start and end, only by its owner or an admin.
  router.add("PATCH", "/api/bookings/:id", async (request, params) => {
    const user = currentUser(store, request);
    const booking = store.getBooking(idParam(params));
    if (!booking) throw notFound("no such booking");
    if (booking.status === "cancelled") throw badRequest("a cancelled booking cannot be changed");
    const changes = parseBookingChanges(readJson(request));
    const next = { ...booking, ...changes };
    const room = store.getRoom(booking.roomId);
    if (!room) throw notFound("no such room");
    checkSlot(room, next.start, next.end, config);
    const clash = conflicts(store, room.id, next.start, next.end, booking.id);
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

const EDITABLE = ["title", "start", "end"] as const;
type Changes = Partial<{ title: string; start: string; end: string }>;

/** The fields a PATCH may change, checked as when booking; any other key is a 400. */
function parseBookingChanges(body: unknown): Changes {
  if (!isObject(body)) throw badRequest("the body must be a JSON object");
  const keys = Object.keys(body);
  const other = keys.find((key) => !(EDITABLE as readonly string[]).includes(key));
  if (other !== undefined) throw badRequest(`${other} cannot be changed`);
  if (keys.length === 0) throw badRequest("nothing to change: send title, start or end");
  const changes: Changes = {};
  if ("title" in body) {
    const { title } = body;
    if (typeof title !== "string" || !title.trim()) throw badRequest("title must be a non-empty string");
    if (title.length > 120) throw badRequest("title must be at most 120 characters");
    changes.title = title.trim();
  }
  for (const field of ["start", "end"] as const) {
    if (!(field in body)) continue;
    const value = body[field];
    if (typeof value !== "string" || parseDateTime(value) === null) throw badRequest(`${field} must be YYYY-MM-DDTHH:MM`);
    changes[field] = value;
  }
  return changes;
}
