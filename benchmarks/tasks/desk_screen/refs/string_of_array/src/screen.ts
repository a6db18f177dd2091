// The page the tablets beside a room show: its bookings of one day, as plain HTML. Every value
// on it was typed by someone, whatever its JSON type, so each becomes a string and is escaped.

import type { Booking, PrefValue, Room } from "./types.js";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** How the maker of a booking is shown: their `displayName` (a string as it is, any other value as JSON), or their login. */
export function shownName(displayName: PrefValue | undefined, login: string): string {
  if (displayName === undefined || displayName === null) return login;
  return typeof displayName === "string" ? displayName : String(displayName);
}

export interface ScreenRow {
  booking: Booking;
  organiser: string;
}

export function screenPage(room: Room, rows: ScreenRow[]): string {
  const items = rows.map(
    ({ booking, organiser }) =>
      `<li>${booking.start.slice(11)}–${booking.end.slice(11)} ${escapeHtml(booking.title)} (${escapeHtml(organiser)})</li>`,
  );
  const name = escapeHtml(room.name);
  return (
    `<!doctype html>\n<html><head><meta charset="utf-8"><title>${name}</title></head>\n` +
    `<body><h1>${name}</h1>\n<ul>\n${items.join("\n")}\n</ul></body></html>\n`
  );
}
