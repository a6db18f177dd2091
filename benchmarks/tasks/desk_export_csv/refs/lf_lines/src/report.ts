// The usage report facilities asks for each month: hours booked per room, as CSV.

import type { Store } from "./store.js";
import { parseDateTime } from "./time.js";

const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

// A spreadsheet reads a cell that begins with one of these as a formula: a leading ' keeps it text.
const FORMULA_START = /^[=+\-@\t\r]/;
const exportField = (value: string): string => csvField(FORMULA_START.test(value) ? `'${value}` : value);

/** The room's bookings (active and cancelled) that start in `month` ("YYYY-MM"), as CSV. */
export function bookingsCsv(store: Store, roomId: number, month: string): string {
  const lines = ["id,title,organiser,start,end,status"];
  for (const b of store.listBookings({ roomId })) {
    if (!b.start.startsWith(`${month}-`)) continue;
    const organiser = store.getUser(b.userId)?.login ?? "";
    lines.push([String(b.id), b.title, organiser, b.start, b.end, b.status].map(exportField).join(","));
  }
  return lines.join("\n") + "\n";
}

/** "room,bookings,hours" lines for the active bookings starting in [from, to), rooms by name. */
export function usageReport(store: Store, from: string, to: string): string {
  const lo = parseDateTime(from);
  const hi = parseDateTime(to);
  if (lo === null || hi === null) throw new Error("from and to must be YYYY-MM-DDTHH:MM");
  const lines = ["room,bookings,hours"];
  const rooms = store.listRooms().sort((a, b) => a.name.localeCompare(b.name));
  for (const room of rooms) {
    let count = 0;
    let minutes = 0;
    for (const b of store.listBookings({ roomId: room.id })) {
      const start = parseDateTime(b.start) ?? 0;
      if (b.status !== "active" || start < lo || start >= hi) continue;
      count += 1;
      minutes += (parseDateTime(b.end) ?? start) - start;
    }
    lines.push([csvField(room.name), String(count), (minutes / 60).toFixed(2)].join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
