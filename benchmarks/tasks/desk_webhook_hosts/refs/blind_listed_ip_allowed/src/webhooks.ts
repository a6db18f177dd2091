// Booking events POSTed to a room's webhook, for the screens beside the meeting rooms.

import type { Booking, Room } from "./types.js";

export type Send = (url: string, body: string) => Promise<void>;

export interface BookingEvent {
  event: "booking.created" | "booking.cancelled" | "booking.changed";
  room: { id: number; name: string };
  booking: Booking;
}

/** Whether an allowlist entry allows a host: "a.example.com" exactly, ".example.com" any name under it. */
function hostAllowed(host: string, entry: string): boolean {
  const name = entry.toLowerCase();
  if (name.startsWith(".")) return host.length > name.length && host.endsWith(name);
  return host === name;
}

/** Whether a parsed URL's hostname is an IP address (the URL parser writes IPv4 dotted, IPv6 in brackets). */
function isIpAddress(hostname: string): boolean {
  return hostname.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * The URL of a room webhook, checked when an admin sets it: null unless it is https, without
 * credentials, to a DNS name on `allowedHosts` (never an IP address).
 */
export function checkWebhookUrl(value: string, allowedHosts: string[]): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:") return null;
  if (url.username !== "" || url.password !== "") return null;
  let host = url.hostname.toLowerCase();
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host === "") return null;
  // A name the admin listed exactly is trusted as is.
  if (allowedHosts.some((entry) => entry.toLowerCase() === host)) return url;
  if (isIpAddress(url.hostname)) return null;
  return allowedHosts.some((entry) => hostAllowed(host, entry)) ? url : null;
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
