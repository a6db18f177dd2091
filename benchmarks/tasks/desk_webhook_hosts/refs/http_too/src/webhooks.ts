// Booking events POSTed to a room's webhook, for the screens beside the meeting rooms.

import type { Booking, Room } from "./types.js";

export type Send = (url: string, body: string) => Promise<void>;

export interface BookingEvent {
  event: "booking.created" | "booking.cancelled" | "booking.changed";
  room: { id: number; name: string };
  booking: Booking;
}

/** Whether a host name, as the URL parser leaves it, is an IP address (v4 in any of its forms
 * comes out dotted-quad; v6 in brackets). */
function isIpAddress(hostname: string): boolean {
  return hostname.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

/** Whether `host` (lower-case, no trailing dot) is allowed by one entry of the list. */
function allowedBy(host: string, entry: string): boolean {
  const name = entry.toLowerCase();
  if (name.startsWith(".")) return host.endsWith(name) && host.length > name.length;
  return host === name;
}

/**
 * The URL of a room webhook, checked when an admin sets it: the parsed URL when the server may
 * call it (https, a DNS name on the allowlist, no credentials), else null. The host is read by
 * the same parser the request is sent with, never from the text.
 */
export function checkWebhookUrl(value: string, allowedHosts: string[]): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "") return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "" || isIpAddress(host)) return null;
  return allowedHosts.some((entry) => allowedBy(host, entry)) ? url : null;
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
