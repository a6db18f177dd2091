// /api/bookings: booking a room, reading a booking, cancelling it; /api/me/bookings.

import { canManage, currentUser } from "../auth.js";
import { createBooking, parseBookingInput } from "../bookings.js";
import { badRequest, json, notFound, readJson } from "../http.js";
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

  // A booking is for its owner and the admins only: to anyone else, someone else's booking is
  // answered exactly as an id no booking has, so ids cannot be probed.
  router.add("GET", "/api/bookings/:id", (request, params) => {
    const user = currentUser(store, request);
    const booking = store.getBooking(idParam(params));
    if (!booking) throw notFound("no such booking");
    if (!canManage(user, booking.userId)) throw notFound("booking not found");
    return json(200, booking);
  });

  // Cancelling keeps the booking (status "cancelled") for the usage report's history.
  router.add("DELETE", "/api/bookings/:id", async (request, params) => {
    const user = currentUser(store, request);
    const booking = store.getBooking(idParam(params));
    if (!booking) throw notFound("no such booking");
    if (!canManage(user, booking.userId)) throw notFound("booking not found");
    if (booking.status === "cancelled") throw badRequest("the booking is already cancelled");
    const cancelled = store.updateBooking(booking.id, { status: "cancelled" });
    const room = store.getRoom(booking.roomId);
    if (room) await notifier.notify(room, "booking.cancelled", cancelled);
    return json(200, cancelled);
  });

  router.add("GET", "/api/me/bookings", (request) => {
    const user = currentUser(store, request);
    return json(200, store.listBookings({ userId: user.id }).filter((b) => b.status === "active"));
  });
}
