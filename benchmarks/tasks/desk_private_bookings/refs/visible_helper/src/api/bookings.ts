// /api/bookings: booking a room, reading a booking, cancelling it; /api/me/bookings.

import { canManage, currentUser } from "../auth.js";
import { createBooking, parseBookingInput } from "../bookings.js";
import { badRequest, json, notFound, readJson } from "../http.js";
import { idParam, type Router } from "../router.js";
import type { Booking, User } from "../types.js";
import type { Context } from "./context.js";

export function bookingRoutes(router: Router, ctx: Context): void {
  const { store, config, notifier } = ctx;

  /** The booking when the user may see it; a missing one and someone else's are the same 404. */
  const visible = (user: User, id: number): Booking => {
    const booking = store.getBooking(id);
    if (booking === undefined) throw notFound("no such booking");
    if (user.role !== "admin" && booking.userId !== user.id) throw notFound("no such booking");
    return booking;
  };

  router.add("POST", "/api/bookings", async (request) => {
    const user = currentUser(store, request);
    const booking = createBooking(store, config, user.id, parseBookingInput(readJson(request)));
    const room = store.getRoom(booking.roomId);
    if (room) await notifier.notify(room, "booking.created", booking);
    return json(201, booking);
  });

  // Someone else's booking answers exactly as a missing one: its id tells nothing.
  router.add("GET", "/api/bookings/:id", (request, params) => {
    const user = currentUser(store, request);
    const booking = visible(user, idParam(params));
    return json(200, booking);
  });

  // Cancelling keeps the booking (status "cancelled") for the usage report's history.
  router.add("DELETE", "/api/bookings/:id", async (request, params) => {
    const user = currentUser(store, request);
    const booking = visible(user, idParam(params));
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
