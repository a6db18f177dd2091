// The rules of booking a room: what a valid booking is, and which bookings are in the way.

import type { Config } from "./config.js";
import { badRequest, conflict, isObject, notFound } from "./http.js";
import type { Store } from "./store.js";
import { parseClock, parseDateTime, startOfDay } from "./time.js";
import type { Booking, BookingInput, Room } from "./types.js";

/** A booking input from a client's JSON, checked field by field (400 on the first problem). */
export function parseBookingInput(body: unknown): BookingInput {
  if (!isObject(body)) throw badRequest("the body must be a JSON object");
  const { roomId, title, start, end } = body;
  if (typeof roomId !== "number" || !Number.isInteger(roomId)) throw badRequest("roomId must be an integer");
  if (typeof title !== "string" || !title.trim()) throw badRequest("title must be a non-empty string");
  if (title.length > 120) throw badRequest("title must be at most 120 characters");
  if (typeof start !== "string" || parseDateTime(start) === null) throw badRequest("start must be YYYY-MM-DDTHH:MM");
  if (typeof end !== "string" || parseDateTime(end) === null) throw badRequest("end must be YYYY-MM-DDTHH:MM");
  return { roomId, title: title.trim(), start, end };
}

/**
 * Check that [start, end) is a valid slot of the room: it ends after it starts, lies on one day
 * within the opening hours, and is no longer than the configured maximum.
 */
export function checkSlot(room: Room, start: string, end: string, config: Config): void {
  const from = parseDateTime(start);
  const to = parseDateTime(end);
  if (from === null || to === null) throw badRequest("start and end must be YYYY-MM-DDTHH:MM");
  if (to <= from) throw badRequest("end must be after start");
  if (to - from > config.maxBookingMinutes) {
    throw badRequest(`a booking is at most ${config.maxBookingMinutes} minutes`);
  }
  const day = startOfDay(from);
  const opens = parseClock(room.opens) ?? 0;
  const closes = parseClock(room.closes) ?? 24 * 60;
  if (from < day + opens || to > day + closes) {
    throw badRequest(`${room.name} is open from ${room.opens} to ${room.closes}`);
  }
}

/**
 * Whether two bookings of a room are in each other's way. A booking holds the room from its start
 * up to, not including, its end: one that ends at 10:00 leaves the room free for one at 10:00.
 */
export function overlaps(a: { start: string; end: string }, b: { start: string; end: string }): boolean {
  const aStart = parseDateTime(a.start) ?? 0;
  const aEnd = parseDateTime(a.end) ?? 0;
  const bStart = parseDateTime(b.start) ?? 0;
  const bEnd = parseDateTime(b.end) ?? 0;
  return aStart < bEnd && bStart < aEnd;
}

/**
 * The active bookings of the room that [start, end) would clash with (`ignoreId`: one being
 * moved). A cancelled booking no longer holds its room.
 */
export function conflicts(store: Store, roomId: number, start: string, end: string, ignoreId?: number): Booking[] {
  return store
    .listBookings({ roomId })
    .filter((b) => b.status === "active" && b.id !== ignoreId)
    .filter((b) => overlaps(b, { start, end }));
}

/** Book a room for a user: 404 for an unknown room, 400 for a bad slot, 409 for a clash. */
export function createBooking(store: Store, config: Config, userId: number, input: BookingInput): Booking {
  const room = store.getRoom(input.roomId);
  if (!room) throw notFound("no such room");
  checkSlot(room, input.start, input.end, config);
  const clash = conflicts(store, room.id, input.start, input.end);
  if (clash.length > 0) throw conflict(`${room.name} is already booked then (booking ${clash[0]?.id})`);
  return store.addBooking(userId, input);
}
