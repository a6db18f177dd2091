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
  let exact = 0n; // the VAT of all rates, in cents x 10000, unrounded
  for (const [key, group] of byRate) {
    vat[key] = euros((2n * group.net * group.rate + 10000n) / 20000n);
    exact += group.net * group.rate;
  }
  return { net: euros(net), vat, total: euros(net + (2n * exact + 10000n) / 20000n) };
}

module.exports = { invoiceTotals };
