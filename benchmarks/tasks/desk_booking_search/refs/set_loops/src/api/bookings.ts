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

  // GET /api/bookings?room=&user=&from=&to= (members: their own bookings only)
  router.add("GET", "/api/bookings", (request) => {
    const me = currentUser(store, request);
    const params = parseUrl(request.url).query;
    const items = (key: string): Set<string> | undefined => {
      const value = params.get(key);
      if (value === undefined) return undefined;
      const parts = value.split(",");
      for (const part of parts) if (part.length === 0) throw badRequest(`empty item in ${key}`);
      return new Set(parts);
    };
    const roomIds = new Set<number>();
    const roomItems = items("room");
    for (const item of roomItems ?? []) {
      if (!/^[0-9]+$/.test(item) || Number(item) < 1) throw badRequest("room must be ids separated by commas");
      roomIds.add(Number(item));
    }
    let users = items("user");
    if (me.role !== "admin") {
      if (users === undefined) users = new Set([me.login]);
      for (const login of users) if (login !== me.login) throw forbidden("you may search your own bookings only");
    }
    const [from, to] = ["from", "to"].map((key) => {
      const value = params.get(key);
      if (value === undefined) return undefined;
      const minute = parseDate(value);
      if (minute === null) throw badRequest(`${key} must be YYYY-MM-DD`);
      return minute;
    });
    if (from !== undefined && to !== undefined && to < from) throw badRequest("from is after to");
    const result = [];
    for (const b of store.listBookings()) {
      if (b.status === "cancelled") continue;
      if (roomItems && !roomIds.has(b.roomId)) continue;
      const owner = store.getUser(b.userId);
      if (users && !(owner && users.has(owner.login))) continue;
      const day = Math.floor((parseDateTime(b.start) ?? 0) / MINUTES_PER_DAY) * MINUTES_PER_DAY;
      if (from !== undefined && day < from) continue;
      if (to !== undefined && day > to) continue;
      result.push(b);
    }
    return json(200, result);
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
