function check(line) {
  if (!/^\d+(\.\d{1,2})?$/.test(line.unitPrice ?? "") || !/^\d+(\.\d{1,2})?$/.test(line.vatRate ?? "")) {
    throw new RangeError("bad amount");
  }
  if (!Number.isInteger(line.quantity) || line.quantity < 1) throw new RangeError("bad quantity");
}

function invoiceTotals(lines) {
  lines.forEach(check);
  let net = 0;
  const perRate = {};
  for (const line of lines) {
    const lineNet = parseFloat(line.unitPrice) * line.quantity;
    net += lineNet;
    perRate[line.vatRate] = (perRate[line.vatRate] || 0) + lineNet;
  }
  const vat = {};
  let total = net;
  for (const [rate, base] of Object.entries(perRate)) {
    const amount = Math.round(base * parseFloat(rate)) / 100;
    vat[rate] = amount.toFixed(2);
    total += amount;
  }
  return { net: net.toFixed(2), vat, total: total.toFixed(2) };
}

module.exports = { invoiceTotals };
