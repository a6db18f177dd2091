"use strict";

const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

// A string with at most two decimals, in hundredths, as a BigInt ("5.5" -> 550n).
function hundredths(text, what) {
  const m = typeof text === "string" ? DECIMAL.exec(text) : null;
  if (m === null) throw new RangeError(`${what} must be a string with at most two decimals: ${String(text)}`);
  return BigInt(m[1]) * 100n + BigInt((m[2] ?? "").padEnd(2, "0"));
}

function euros(cents) {
  const digits = cents.toString().padStart(3, "0");
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

function invoiceTotals(lines) {
  let net = 0n;
  const byRate = new Map(); // the rate as written -> { rate in hundredths of a percent, net in cents }
  for (const line of lines) {
    const price = hundredths(line.unitPrice, "unitPrice");
    const rate = hundredths(line.vatRate, "vatRate");
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
      throw new RangeError(`quantity must be a positive integer: ${String(line.quantity)}`);
    }
    const lineNet = price * BigInt(line.quantity);
    net += lineNet;
    const group = byRate.get(line.vatRate) ?? { rate, net: 0n };
    group.net += lineNet;
    byRate.set(line.vatRate, group);
  }
  const vat = {};
  let vatCents = 0n;
  for (const [key, group] of byRate) {
    // cents x rate / 10000, rounded half up: floor((2 x cents x rate + 10000) / 20000)
    const cents = (2n * group.net * group.rate + 10000n) / 20000n;
    vat[key] = euros(cents);
    vatCents += cents;
  }
  return { net: euros(net), vat, total: euros(net + vatCents) };
}

module.exports = { invoiceTotals };
