// /api/bookings: booking a room, reading a booking, cancelling it; /api/me/bookings.

import { canManage, currentUser } from "../auth.js";
import { checkSlot, conflicts, createBooking, parseBookingInput } from "../bookings.js";
import { badRequest, conflict, forbidden, isObject, json, notFound, readJson } from "../http.js";
import { parseDateTime } from "../time.js";
import type { Booking } from "../types.js";
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

  router.add("PATCH", "/api/bookings/:id", async (request, params) => {
    const user = currentUser(store, request);
    const booking = store.getBooking(idParam(params));
    if (!booking) throw notFound("no such booking");
    if (!canManage(user, booking.userId)) throw forbidden("only its owner or an admin may change a booking");
    if (booking.status === "cancelled") throw badRequest("a cancelled booking cannot be changed");
    const body = readJson(request);
    if (!isObject(body) || Object.keys(body).length === 0) throw badRequest("send the fields to change");
    if ("title" in body && (typeof body.title !== "string" || !body.title.trim() || body.title.length > 120)) {
      throw badRequest("title must be a non-empty string of at most 120 characters");
    }
    for (const field of ["start", "end"]) {
      const value = body[field];
      if (field in body && (typeof value !== "string" || parseDateTime(value) === null)) {
        throw badRequest(`${field} must be YYYY-MM-DDTHH:MM`);
      }
    }
    const next = { ...booking, ...body } as Booking;
    if (typeof next.title === "string") next.title = next.title.trim();
    const room = store.getRoom(booking.roomId);
    if (!room) throw notFound("no such room");
    checkSlot(room, next.start, next.end, config);
    if (conflicts(store, room.id, next.start, next.end, booking.id).length > 0) throw conflict(`${room.name} is already booked then`);
    const { id: _, ...changes } = next;
    const changed = store.updateBooking(booking.id, changes);
    await notifier.notify(room, "booking.changed", changed);
    return json(200, changed);
  });

  router.add("GET", "/api/me/bookings", (request) => {
    const user = currentUser(store, request);
    return json(200, store.listBookings({ userId: user.id }).filter((b) => b.status === "active"));
  });
}
