// When a room is free on a day: its opening hours less what its active bookings cover.

import { MINUTES_PER_DAY, formatDateTime, parseClock, parseDateTime } from "./time.js";
import type { Booking, Room } from "./types.js";

export interface Period {
  start: string;
  end: string;
}

/**
 * The free periods of `room` on the day starting at minute `day`, at least `minimum` minutes
 * long, in time order. Bookings may overlap each other and reach outside the opening hours:
 * they are clipped to the opening hours and merged before the gaps between them are read.
 */
export function freePeriods(room: Room, bookings: Booking[], day: number, minimum: number): Period[] {
  const opens = day + (parseClock(room.opens) ?? 0);
  const closes = day + (parseClock(room.closes) ?? MINUTES_PER_DAY);
  const busy: [number, number][] = [];
  for (const booking of bookings) {
    if (booking.status !== "active" || booking.roomId !== room.id) continue;
    const start = Math.max(parseDateTime(booking.start) ?? 0, opens);
    const end = Math.min(parseDateTime(booking.end) ?? 0, closes);
    if (start < end) busy.push([start, end]);
  }
  busy.sort((a, b) => a[0] - b[0]);
  const free: Period[] = [];
  let cursor = opens;
  for (const [start, end] of [...busy, [closes, closes] as [number, number]]) {
    if (start - cursor > minimum) free.push({ start: formatDateTime(cursor), end: formatDateTime(start) });
    cursor = Math.max(cursor, end);
  }
  return free;
}

/** The `minutes` query parameter: digits only, 1 to 480; null when it is anything else. */
export function parseMinimum(value: string | undefined): number | null {
  if (value === undefined) return 30;
  if (!/^\d{1,3}$/.test(value)) return null;
  const minutes = Number(value);
  return minutes >= 1 && minutes <= 480 ? minutes : null;
}
