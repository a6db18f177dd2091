// What a user's bookings of a month cost: each booking billed by the started quarter hour, in
// whole cents computed with integers only (a price in euros as a float drifts: 2 × 18.45 / 4).

import type { Store } from "./store.js";
import { parseDateTime } from "./time.js";

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

/** The user's active bookings that start in `month` ("YYYY-MM"), in start order, with their prices. */
export function invoice(store: Store, userId: number, month: string, hourlyRateCents: number): Invoice {
  const lines: InvoiceLine[] = [];
  for (const b of store.listBookings({ userId })) {
    if (b.status !== "active" || !b.start.startsWith(`${month}-`)) continue;
    const minutes = (parseDateTime(b.end) ?? 0) - (parseDateTime(b.start) ?? 0);
    const quarters = Math.ceil(minutes / 15);
    // quarters × rate / 4, half a cent up: floor((quarters × rate + 2) / 4)
    lines.push({ id: b.id, quarters, cents: Math.floor((quarters * hourlyRateCents + 2) / 4) });
  }
  return { month, lines, totalCents: lines.reduce((sum, line) => sum + line.cents, 0) };
}
