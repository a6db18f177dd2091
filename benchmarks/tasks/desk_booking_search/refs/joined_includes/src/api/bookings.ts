// /api/bookings: booking a room, reading a booking, cancelling it; /api/me/bookings.

import { canManage, currentUser } from "../auth.js";
import { createBooking, parseBookingInput } from "../bookings.js";
import { badRequest, forbidden, json, notFound, parseUrl, readJson } from "../http.js";
import { idParam, type Router } from "../router.js";
import { MINUTES_PER_DAY, parseDate, parseDateTime } from "../time.js";
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

  // Search: ?room=2,3&user=ann,bob&from=YYYY-MM-DD&to=YYYY-MM-DD, every parameter optional.
  router.add("GET", "/api/bookings", (request) => {
    const user = currentUser(store, request);
    const query = parseUrl(request.url).query;
    const list = (name: string): string[] | null => {
      const raw = query.get(name);
      if (raw === undefined) return null;
      const items = raw.split(",");
      if (items.includes("")) throw badRequest(`${name} must be a list separated by commas, without empty items`);
      return items;
    };
    const day = (name: string): number | null => {
      const raw = query.get(name);
      if (raw === undefined) return null;
      const value = parseDate(raw);
      if (value === null) throw badRequest(`${name} must be YYYY-MM-DD`);
      return value;
    };
    const rooms = list("room");
    if (rooms && !rooms.every((r) => /^\d+$/.test(r) && Number(r) > 0)) throw badRequest("room must be room ids");
    const admin = user.role === "admin";
    const logins = list("user") ?? (admin ? null : [user.login]);
    // Every alternative is checked, not the first: a member may name only themselves.
    if (!admin && logins?.some((login) => login !== user.login)) {
      throw forbidden("members may search their own bookings only");
    }
    const from = day("from");
    const to = day("to");
    if (from !== null && to !== null && from > to) throw badRequest("from must not be after to");
    const found = store.listBookings().filter((b) => {
      const start = parseDateTime(b.start) ?? 0;
      return (
        b.status === "active" &&
        (rooms === null || rooms.some((r) => Number(r) === b.roomId)) &&
        (logins === null || logins.join(",").includes(store.getUser(b.userId)?.login ?? "\u0000")) &&
        (from === null || start >= from) &&
        (to === null || start < to + MINUTES_PER_DAY)
      );
    });
    return json(200, found);
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

  router.add("GET", "/api/me/bookings", (request) => {
    const user = currentUser(store, request);
    return json(200, store.listBookings({ userId: user.id }).filter((b) => b.status === "active"));
  });
}
