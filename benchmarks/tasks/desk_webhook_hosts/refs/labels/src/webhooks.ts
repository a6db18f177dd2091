// Booking events POSTed to a room's webhook, for the screens beside the meeting rooms.

import type { Booking, Room } from "./types.js";

export type Send = (url: string, body: string) => Promise<void>;

export interface BookingEvent {
  event: "booking.created" | "booking.cancelled" | "booking.changed";
  room: { id: number; name: string };
  booking: Booking;
}

const IPV4 = /^[0-9.]+$/;

/**
 * The URL of a room webhook if the server may call it: https, no credentials, and a host name
 * (never an address) that an entry of `allowedHosts` names, label by label.
 */
export function checkWebhookUrl(value: string, allowedHosts: string[]): URL | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  let hostname = url.hostname.toLowerCase();
  if (hostname.endsWith(".")) hostname = hostname.slice(0, -1);
  if (hostname.includes("[") || hostname.includes(":") || IPV4.test(hostname)) return null;
  const labels = hostname.split(".");
  for (const entry of allowedHosts) {
    const wildcard = entry.startsWith(".");
    const want = (wildcard ? entry.slice(1) : entry).toLowerCase().split(".");
    if (wildcard ? labels.length <= want.length : labels.length !== want.length) continue;
    const tail = labels.slice(labels.length - want.length);
    if (tail.every((label, i) => label === want[i])) return url;
  }
  return null;
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
