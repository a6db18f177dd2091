// A room's free periods, minute by minute: a day is at most 1,440 minutes, so a table of the
// minutes the room is taken is simpler than merging intervals, and as fast.

import { formatDateTime, parseClock, parseDateTime } from "./time.js";
import type { Booking, Room } from "./types.js";

export interface Period {
  start: string;
  end: string;
}

export function freePeriods(room: Room, bookings: Booking[], day: number, minimum: number): Period[] {
  const opens = parseClock(room.opens) ?? 0;
  const closes = parseClock(room.closes) ?? 1440;
  const taken: boolean[] = new Array<boolean>(closes - opens).fill(false);
  for (const b of bookings) {
    if (b.status === "cancelled" || b.roomId !== room.id) continue;
    const from = (parseDateTime(b.start) ?? 0) - day - opens;
    const to = (parseDateTime(b.end) ?? 0) - day - opens;
    for (let m = Math.max(from, 0); m < Math.min(to, taken.length); m++) taken[m] = true;
  }
  const periods: Period[] = [];
  let runStart = -1;
  for (let m = 0; m <= taken.length; m++) {
    const free = m < taken.length && !taken[m];
    if (free && runStart === -1) runStart = m;
    if (!free && runStart !== -1) {
      if (m - runStart >= minimum) {
        periods.push({ start: formatDateTime(day + opens + runStart), end: formatDateTime(day + opens + m) });
      }
      runStart = -1;
    }
  }
  return periods;
}

const DIGITS = /^[0-9]+$/;

export function parseMinimum(value: string | undefined): number | null {
  if (value === undefined) return 30;
  if (!DIGITS.test(value)) return null;
  const n = parseInt(value, 10);
  return n < 1 || n > 480 ? null : n;
}
