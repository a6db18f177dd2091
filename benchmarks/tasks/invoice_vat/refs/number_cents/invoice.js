// Integer cents in plain numbers: every amount here stays far below 2^53.
const PATTERN = /^\d+(\.\d\d?)?$/;

function toHundredths(value, field) {
  if (typeof value !== "string" || !PATTERN.test(value)) {
    throw new RangeError(`invalid ${field}: ${value}`);
  }
  const [whole, frac = ""] = value.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}

function divRoundHalfUp(a, b) {
  // a, b non-negative integers: the quotient rounded half up, with integer steps only
  const q = (a - (a % b)) / b;
  return 2 * (a % b) >= b ? q + 1 : q;
}

function fmt(cents) {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

function invoiceTotals(lines) {
  const nets = {};
  const rates = {};
  let net = 0;
  for (const { unitPrice, quantity, vatRate } of lines) {
    const price = toHundredths(unitPrice, "unitPrice");
    const rate = toHundredths(vatRate, "vatRate");
    if (!Number.isInteger(quantity) || quantity <= 0) throw new RangeError(`invalid quantity: ${quantity}`);
    net += price * quantity;
    nets[vatRate] = (nets[vatRate] ?? 0) + price * quantity;
    rates[vatRate] = rate;
  }
  const vat = {};
  let total = net;
  for (const key of Object.keys(nets)) {
    const cents = divRoundHalfUp(nets[key] * rates[key], 10000);
    vat[key] = fmt(cents);
    total += cents;
  }
  return { net: fmt(net), vat, total: fmt(total) };
}

module.exports = { invoiceTotals };
