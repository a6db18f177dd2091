// The monthly invoice of a user's room bookings: every booking is billed by the started quarter
// hour at a quarter of the hourly rate, each line rounded to a whole cent (half a cent up).

import type { Store } from "./store.js";
import { parseDateTime } from "./time.js";
import type { Booking } from "./types.js";

export interface InvoiceLine {
  id: number;
  quarters: number;
  cents: number;
}

export interface Invoice {
  month: string;
  lines: InvoiceLine[];
  totalCents: number;
}

/** "YYYY-MM" with a month 01 to 12, or null. */
export function parseMonth(value: string): string | null {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value) ? value : null;
}

/** The started quarter hours of a booking: 20 minutes are 2, 45 are 3, 61 are 5. */
export function quartersOf(booking: Booking): number {
  const start = parseDateTime(booking.start) ?? 0;
  const end = parseDateTime(booking.end) ?? start;
  return Math.ceil((end - start) / 15);
}

/** q quarters at a quarter of the hourly rate, in whole cents, half a cent rounded up. */
export function quartersPrice(quarters: number, hourlyRateCents: number): number {
  // q * rate / 4 rounded half up, in integers: floor((q * rate + 2) / 4)
  return Math.floor((quarters * hourlyRateCents + 2) / 4);
}

/** The invoice of the user's active bookings that start in `month` ("YYYY-MM"), in start order. */
export function monthlyInvoice(store: Store, userId: number, month: string, hourlyRateCents: number): Invoice {
  const lines: InvoiceLine[] = [];
  for (const booking of store.listBookings({ userId })) {
    if (booking.status !== "active" || !booking.start.startsWith(`${month}-`)) continue;
    const quarters = quartersOf(booking);
    lines.push({ id: booking.id, quarters, cents: quartersPrice(quarters, hourlyRateCents) });
  }
  const totalCents = lines.reduce((sum, line) => sum + line.cents, 0);
  return { month, lines, totalCents };
}
