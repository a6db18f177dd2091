"use strict";
// The totals at the bottom of an invoice.

const AMOUNT = /^\d+(\.\d{1,2})?$/;

function check(value, what) {
  if (typeof value !== "string" || !AMOUNT.test(value)) {
    throw new RangeError(`${what} must be a string like "12.50", got ${JSON.stringify(value)}`);
  }
}

/** Round to cents, half up. */
const roundCents = (x) => Math.round(x * 100) / 100;

function invoiceTotals(lines) {
  let net = 0;
  const netByRate = new Map();
  for (const { unitPrice, quantity, vatRate } of lines) {
    check(unitPrice, "unitPrice");
    check(vatRate, "vatRate");
    if (!Number.isSafeInteger(quantity) || quantity < 1) {
      throw new RangeError(`quantity must be a positive integer, got ${JSON.stringify(quantity)}`);
    }
    const lineNet = roundCents(Number(unitPrice) * quantity);
    net = roundCents(net + lineNet);
    netByRate.set(vatRate, roundCents((netByRate.get(vatRate) ?? 0) + lineNet));
  }
  const vat = {};
  let total = net;
  for (const [rate, rateNet] of netByRate) {
    const amount = roundCents((rateNet * Number(rate)) / 100); // once per rate
    vat[rate] = amount.toFixed(2);
    total = roundCents(total + amount);
  }
  return { net: net.toFixed(2), vat, total: total.toFixed(2) };
}

module.exports = { invoiceTotals };
