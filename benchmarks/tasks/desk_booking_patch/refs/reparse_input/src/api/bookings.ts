// /api/bookings: booking a room, reading a booking, cancelling it; /api/me/bookings.

import { canManage, currentUser } from "../auth.js";
import { checkSlot, conflicts, createBooking, parseBookingInput } from "../bookings.js";
import { badRequest, conflict, forbidden, json, notFound, readJson } from "../http.js";
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
    const id = idParam(params);
    const current = store.getBooking(id);
    if (current === undefined) throw notFound("no such booking");
    if (user.role !== "admin" && current.userId !== user.id) throw forbidden("not your booking");
    if (current.status !== "active") throw badRequest("a cancelled booking cannot be changed");
    const body = readJson(request);
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest("expected a JSON object");
    const fields = Object.keys(body);
    if (fields.length === 0) throw badRequest("expected title, start or end");
    for (const field of fields) {
      if (field !== "title" && field !== "start" && field !== "end") throw badRequest(`unknown or read-only field ${field}`);
    }
    // the same checks as a new booking, on the booking as it would be
    const input = parseBookingInput({
      roomId: current.roomId,
      title: current.title,
      start: current.start,
      end: current.end,
      ...(body as Record<string, unknown>),
    });
    const room = store.getRoom(current.roomId);
    if (room === undefined) throw notFound("no such room");
    checkSlot(room, input.start, input.end, config);
    const others = conflicts(store, room.id, input.start, input.end, id);
    if (others.length) throw conflict(`${room.name} is already booked then`);
    const updated = store.updateBooking(id, { title: input.title, start: input.start, end: input.end });
    await notifier.notify(room, "booking.changed", updated);
    return json(200, updated);
  });

  router.add("GET", "/api/me/bookings", (request) => {
    const user = currentUser(store, request);
    return json(200, store.listBookings({ userId: user.id }).filter((b) => b.status === "active"));
  });
}

