// A user's bookings of a month, billed by the started quarter hour.

import type { Store } from "./store.js";
import { parseDateTime, parseDate } from "./time.js";

export function invoice(store: Store, userId: number, month: string, hourlyRateCents: number) {
  const first = parseDate(`${month}-01`) ?? 0;
  const [y, m] = month.split("-").map(Number) as [number, number];
  const after = parseDate(m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`) ?? 0;
  const lines = store
    .listBookings({ userId })
    .filter((b) => b.status === "active")
    .filter((b) => {
      const start = parseDateTime(b.start) ?? -1;
      return start >= first && start < after;
    })
    .map((b) => {
      const length = (parseDateTime(b.end) ?? 0) - (parseDateTime(b.start) ?? 0);
      const quarters = Math.floor((length + 14) / 15);
      // quarters × rate is an integer, so its quarter is exact in a double and Math.round rounds .5 up
      return { id: b.id, quarters, cents: Math.round((quarters * hourlyRateCents) / 4) };
    });
  let totalCents = 0;
  for (const line of lines) totalCents += line.cents;
  return { month, lines, totalCents };
}
