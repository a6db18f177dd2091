// Booking events POSTed to a room's webhook, for the screens beside the meeting rooms.

import type { Booking, Room } from "./types.js";

export type Send = (url: string, body: string) => Promise<void>;

export interface BookingEvent {
  event: "booking.created" | "booking.cancelled" | "booking.changed";
  room: { id: number; name: string };
  booking: Booking;
}

// scheme, then the host: up to the first "/", ":", "?" or "#"
const HTTPS_HOST = /^https:\/\/([^/:?#]+)/i;
const IP = /^(\d+\.){3}\d+$|^\[/;

/** The URL of a room webhook, checked when an admin sets it: null when it is not acceptable. */
export function checkWebhookUrl(value: string, allowedHosts: string[]): URL | null {
  const m = HTTPS_HOST.exec(value);
  if (!m) return null;
  const host = (m[1] ?? "").toLowerCase().replace(/\.$/, "");
  if (host.includes("@") || IP.test(host)) return null;
  const ok = allowedHosts.some((entry) =>
    entry.startsWith(".") ? host.endsWith(entry) && host !== entry.slice(1) : host === entry,
  );
  if (!ok) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

export class Notifier {
  /** Events that could not be delivered, newest last (kept for the admin page). */
  readonly failed: { url: string; event: BookingEvent["event"]; error: string }[] = [];

  constructor(private readonly send: Send) {}

  async notify(room: Room, event: BookingEvent["event"], booking: Booking): Promise<void> {
    if (!room.webhook) return;
    const payload: BookingEvent = { event, room: { id: room.id, name: room.name }, booking };
    try {
      await this.send(room.webhook, JSON.stringify(payload));
    } catch (error) {
      this.failed.push({ url: room.webhook, event, error: String(error) });
      if (this.failed.length > 100) this.failed.shift();
    }
  }
}

/** Deliveries nobody listens to: the default when the server is given no sender. */
export const dropEvents: Send = async () => {};
