// The screen beside a room: a small HTML page whose every interpolated value is escaped by the
// template tag itself, so no call site can forget it.

import type { Booking, PrefValue, Room } from "./types.js";

function text(value: unknown): string {
  const s = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

function html(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce((out, s, i) => out + s + (i < values.length ? text(values[i]) : ""), "");
}

export function screenPage(room: Room, rows: { booking: Booking; name: PrefValue | undefined; login: string }[]): string {
  const items = rows
    .map(({ booking, name, login }) => {
      const who = name === undefined || name === null ? login : name;
      return html`<li><span>${booking.start.slice(11)}</span> to <span>${booking.end.slice(11)}</span>: ${booking.title}, by ${who}</li>`;
    })
    .join("");
  return html`<!DOCTYPE html><html><head><meta charset="utf-8"><title>${room.name}</title></head><body><h1>${room.name}</h1><ul>` + items + "</ul></body></html>";
}
