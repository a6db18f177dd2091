// The page for the screens beside the rooms: what is on today in one room, as plain HTML.

import type { Store } from "./store.js";
import { MINUTES_PER_DAY, parseDateTime } from "./time.js";
import type { Room, User } from "./types.js";

/** Text for HTML content and attribute values: every character that could start markup escaped. */
export function escapeHtml(value: string): string {
  return value
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** The name a user chose in the web client (preference displayName, any JSON value), else their login. */
export function displayName(user: User): string {
  const value = Object.prototype.hasOwnProperty.call(user.preferences, "displayName")
    ? user.preferences["displayName"]
    : undefined;
  if (value === undefined || value === null) return user.login;
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

const clock = (dateTime: string): string => dateTime.slice(11, 16);

/** The HTML page of a room's active bookings that start on the day starting at minute `day`. */
export function roomScreen(store: Store, room: Room, day: number): string {
  const items: string[] = [];
  for (const b of store.listBookings({ roomId: room.id })) {
    const start = parseDateTime(b.start) ?? 0;
    if (b.status !== "active" || start < day || start >= day + MINUTES_PER_DAY) continue;
    const user = store.getUser(b.userId);
    const who = user ? displayName(user) : `user ${b.userId}`;
    items.push(
      `<li><span class="time">${clock(b.start)}–${clock(b.end)}</span> ` +
        `<span class="title">${escapeHtml(b.title)}</span> ` +
        `<span class="who">${escapeHtml(who)}</span></li>`,
    );
  }
  const name = escapeHtml(room.name);
  return (
    `<!doctype html>\n<html>\n<head><meta charset="utf-8"><title>${name}</title></head>\n<body>\n` +
    `<h1>${name}</h1>\n<ul>\n${items.join("\n")}${items.length ? "\n" : ""}</ul>\n</body>\n</html>\n`
  );
}
