"use strict";
// The totals at the bottom of an invoice, computed exactly in cents (BigInt).

const AMOUNT = /^(\d+)(?:\.(\d{1,2}))?$/;

/** "12.5" -> 1250n (hundredths); a string that is not a plain amount is a RangeError. */
function hundredths(value, what) {
  const m = value === null || value === undefined ? null : AMOUNT.exec(String(value));
  if (!m) throw new RangeError(`${what} must be a string like "12.50", got ${JSON.stringify(value)}`);
  return BigInt(m[1]) * 100n + BigInt((m[2] ?? "").padEnd(2, "0"));
}

/** 123456n cents -> "1234.56" */
function formatCents(cents) {
  const s = cents.toString().padStart(3, "0");
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}

function invoiceTotals(lines) {
  let net = 0n;
  const netByRate = new Map(); // rate as written -> { bp, net }
  for (const line of lines) {
    const { unitPrice, quantity, vatRate } = line;
    const price = hundredths(unitPrice, "unitPrice");
    const rate = hundredths(vatRate, "vatRate"); // hundredths of a percent
    if (!Number.isSafeInteger(quantity) || quantity < 1) {
      throw new RangeError(`quantity must be a positive integer, got ${JSON.stringify(quantity)}`);
    }
    const lineNet = price * BigInt(quantity);
    net += lineNet;
    const entry = netByRate.get(vatRate) ?? { rate, net: 0n };
    entry.net += lineNet;
    netByRate.set(vatRate, entry);
  }
  const vat = {};
  let total = net;
  for (const [key, { rate, net: rateNet }] of netByRate) {
    // cents * (percent * 100) / 10000, rounded half up once per rate
    const cents = (rateNet * rate + 5000n) / 10000n;
    vat[key] = formatCents(cents);
    total += cents;
  }
  return { net: formatCents(net), vat, total: formatCents(total) };
}

module.exports = { invoiceTotals };
