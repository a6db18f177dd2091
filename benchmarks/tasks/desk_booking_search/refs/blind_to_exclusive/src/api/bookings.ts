// /api/bookings: booking a room, reading a booking, cancelling it, searching; /api/me/bookings.

import { canManage, currentUser } from "../auth.js";
import { createBooking, parseBookingInput } from "../bookings.js";
import { badRequest, forbidden, json, notFound, parseUrl, readJson } from "../http.js";
import { idParam, type Router } from "../router.js";
import { parseDate, parseDateTime } from "../time.js";
import type { Context } from "./context.js";

/** The items of a comma-separated parameter, or null when it is absent; empty values are a 400. */
function listParam(query: Map<string, string>, name: string): string[] | null {
  const raw = query.get(name);
  if (raw === undefined) return null;
  const items = raw.split(",");
  if (items.some((item) => item === "")) throw badRequest(`${name} must be a comma-separated list without empty items`);
  return items;
}

function roomIds(items: string[]): number[] {
  return items.map((item) => {
    if (!/^\d+$/.test(item) || Number(item) <= 0) throw badRequest("room must be room ids greater than 0");
    return Number(item);
  });
}

function dayParam(query: Map<string, string>, name: string): number | null {
  const raw = query.get(name);
  if (raw === undefined) return null;
  const day = parseDate(raw);
  if (day === null) throw badRequest(`${name} must be a date YYYY-MM-DD`);
  return day;
}

export function bookingRoutes(router: Router, ctx: Context): void {
  const { store, config, notifier } = ctx;

  // Search: ?room=2,3&user=ann,bob&from=YYYY-MM-DD&to=YYYY-MM-DD, every parameter optional.
  router.add("GET", "/api/bookings", (request) => {
    const user = currentUser(store, request);
    const { query } = parseUrl(request.url);
    const roomItems = listParam(query, "room");
    const rooms = roomItems === null ? null : roomIds(roomItems);
    let logins = listParam(query, "user");
    const from = dayParam(query, "from");
    const to = dayParam(query, "to");
    if (from !== null && to !== null && from > to) throw badRequest("from must not be after to");

    if (user.role !== "admin") {
      if (logins === null) logins = [user.login];
      else if (logins.some((login) => login !== user.login)) {
        throw forbidden("members may search their own bookings only");
      }
    }
    const userIds =
      logins === null
        ? null
        : new Set(logins.map((login) => store.findUserByLogin(login)?.id).filter((id): id is number => id !== undefined));

    const found = store.listBookings().filter((b) => {
      if (b.status !== "active") return false;
      if (rooms !== null && !rooms.includes(b.roomId)) return false;
      if (userIds !== null && !userIds.has(b.userId)) return false;
      const start = parseDateTime(b.start) ?? 0;
      if (from !== null && start < from) return false;
      if (to !== null && start >= to) return false;
      return true;
    });
    return json(200, found);
  });

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

  router.add("GET", "/api/me/bookings", (request) => {
    const user = currentUser(store, request);
    return json(200, store.listBookings({ userId: user.id }).filter((b) => b.status === "active"));
  });
}
