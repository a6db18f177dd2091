// A room's free periods on one day: the stretches of its opening hours no active booking covers.

import { formatDateTime, MINUTES_PER_DAY, parseClock, parseDateTime } from "./time.js";
import type { Booking, Room } from "./types.js";

/** The shortest free period listed when the client does not say. */
export const DEFAULT_MIN_MINUTES = 30;

export interface FreePeriod {
  start: string;
  end: string;
}

/**
 * The free periods of `room` on the day starting at minute `day` (see time.ts), in time order,
 * each as long as it can be, keeping those at least `minMinutes` long. A booking covers
 * [start, end); cancelled bookings cover nothing; bookings may overlap or run past the opening
 * hours (only the part within them counts).
 */
export function freePeriods(room: Room, bookings: Booking[], day: number, minMinutes: number): FreePeriod[] {
  const opens = day + (parseClock(room.opens) ?? 0);
  const closes = day + (parseClock(room.closes) ?? MINUTES_PER_DAY);
  const busy: [number, number][] = [];
  for (const b of bookings) {
    if (b.status !== "active") continue;
    const start = parseDateTime(b.start);
    const end = parseDateTime(b.end);
    if (start === null || end === null) continue;
    const from = Math.max(start, opens);
    const to = Math.min(end, closes);
    if (from < to) busy.push([from, to]);
  }
  busy.sort((a, b) => a[0] - b[0] || a[1] - b[1]);

  const free: [number, number][] = [];
  let cursor = opens;
  for (const [from, to] of busy) {
    if (from > cursor) free.push([cursor, from]);
    cursor = Math.max(cursor, to);
  }
  if (cursor < closes) free.push([cursor, closes]);

  return free
    .filter(([from, to]) => to - from >= minMinutes)
    .map(([from, to]) => ({ start: formatDateTime(from), end: formatDateTime(to) }));
}
