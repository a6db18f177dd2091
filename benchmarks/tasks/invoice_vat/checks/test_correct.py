import json
import math
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

import pytest

# (lines as (unitPrice, quantity, vatRate), the expected {net, vat, total})
CASES = [
    ([("0.10", 1, "5")], ("0.10", {"5": "0.01"}, "0.11")),  # VAT of exactly half a cent
    ([("1.05", 1, "10")], ("1.05", {"10": "0.11"}, "1.16")),  # 0.105: a float product is 0.10499...
    ([("0.25", 3, "10")], ("0.75", {"10": "0.08"}, "0.83")),
    ([("2.15", 1, "10"), ("2.15", 1, "10")], ("4.30", {"10": "0.43"}, "4.73")),  # per line: 0.22 + 0.22
    ([("0.70", 3, "7.5"), ("19.99", 2, "20")], ("42.08", {"7.5": "0.16", "20": "8.00"}, "50.24")),
    ([("1.01", 4, "19"), ("1.05", 1, "8.25")], ("5.09", {"19": "0.77", "8.25": "0.09"}, "5.95")),
    ([("0.35", 3, "10"), ("0.45", 1, "8.25"), ("1.15", 4, "19")],
     ("6.10", {"10": "0.11", "8.25": "0.04", "19": "0.87"}, "7.12")),
    ([("1.15", 1, "10"), ("0.35", 3, "5.5"), ("12.50", 4, "20")],
     ("52.20", {"10": "0.12", "5.5": "0.06", "20": "10.00"}, "62.38")),
    ([("0.10", 1, "0"), ("0.20", 1, "0")], ("0.30", {"0": "0.00"}, "0.30")),
    ([("99999.99", 1000, "20"), ("3", 7, "5.5")], ("100000011.00", {"20": "19999998.00", "5.5": "1.16"}, "120000010.16")),
    ([("8.25", 4, "7.5"), ("8.25", 4, "7.5"), ("8.25", 1, "19")], ("74.25", {"7.5": "4.95", "19": "1.57"}, "80.77")),
    # 1.015 and 1.265 exactly (a float product is just below the half); rates keyed as written
    ([("14.50", 1, "7"), ("23.00", 1, "5.50"), ("10", 1, "20.00")],
     ("47.50", {"7": "1.02", "5.50": "1.27", "20.00": "2.00"}, "51.79")),
]


def as_lines(lines):
    return [{"unitPrice": p, "quantity": q, "vatRate": r} for p, q, r in lines]


@pytest.fixture(scope="module")
def results(js_batch):
    return js_batch("invoice.js", f"""
        const invoiceTotals = pick('invoiceTotals');
        return {json.dumps([as_lines(lines) for lines, _ in CASES])}.map((lines) => attempt(() => invoiceTotals(lines)));
    """)


@pytest.mark.parametrize("i", range(len(CASES)))
def test_totals(results, i):
    lines, (net, vat, total) = CASES[i]
    got = results[i]
    assert got["ok"], f"invoiceTotals({as_lines(lines)}) threw {got.get('name')}: {got.get('message')}"
    want = {"net": net, "vat": vat, "total": total}
    assert got["value"] == want, f"invoiceTotals({as_lines(lines)}) returned {got['value']}, expected {want}"


BAD_LINES = [
    {"unitPrice": "1.234", "quantity": 1, "vatRate": "20"},
    {"unitPrice": "-1.00", "quantity": 1, "vatRate": "20"},
    {"unitPrice": "1e3", "quantity": 1, "vatRate": "20"},
    {"unitPrice": "1,50", "quantity": 1, "vatRate": "20"},
    {"unitPrice": "", "quantity": 1, "vatRate": "20"},
    {"unitPrice": 1.5, "quantity": 1, "vatRate": "20"},
    {"unitPrice": "1.", "quantity": 1, "vatRate": "20"},
    {"unitPrice": "1.50", "quantity": 0, "vatRate": "20"},
    {"unitPrice": "1.50", "quantity": -2, "vatRate": "20"},
    {"unitPrice": "1.50", "quantity": 1.5, "vatRate": "20"},
    {"unitPrice": "1.50", "quantity": "2", "vatRate": "20"},
    {"unitPrice": "1.50", "quantity": 1, "vatRate": "20%"},
    {"unitPrice": "1.50", "quantity": 1, "vatRate": "5.555"},
    {"unitPrice": "1.50", "quantity": 1, "vatRate": 20},
]


def test_malformed_line_throws_range_error(js):
    got = js("invoice.js", f"""
        const invoiceTotals = pick('invoiceTotals');
        return {json.dumps(BAD_LINES)}.map((line) => {{
            const r = attempt(() => invoiceTotals([{{ unitPrice: "1.00", quantity: 1, vatRate: "20" }}, line]));
            return r.ok ? "returned" : r.name;
        }});
    """)
    wrong = [(line, name) for line, name in zip(BAD_LINES, got) if name != "RangeError"]
    assert not wrong, f"a malformed line should throw a RangeError; these did not (line, outcome): {wrong}"


# --- the data above separates the plausible wrong formulas -----------------------------------
CENT = Decimal("0.01")


def _groups(lines):
    groups = {}
    for price, qty, rate in lines:
        groups[rate] = groups.get(rate, Decimal(0)) + Decimal(price) * qty
    return groups


def _result(net, vat, total):
    return (f"{net:.2f}", {k: f"{v:.2f}" for k, v in vat.items()}, f"{total:.2f}")


def _stated(lines, rounding=ROUND_HALF_UP):
    net = sum(_groups(lines).values(), Decimal(0))
    vat = {r: (n * Decimal(r) / 100).quantize(CENT, rounding) for r, n in _groups(lines).items()}
    return _result(net, vat, net + sum(vat.values()))


def _js_round(x):
    return math.floor(x * 100 + 0.5) / 100


def _floats(lines):
    groups = {}
    for price, qty, rate in lines:
        groups[rate] = groups.get(rate, 0.0) + float(price) * qty
    vat = {r: _js_round(n * float(r) / 100) for r, n in groups.items()}
    net = sum(groups.values())
    return (f"{_js_round(net):.2f}", {k: f"{v:.2f}" for k, v in vat.items()}, f"{_js_round(net + sum(vat.values())):.2f}")


def _per_line(lines):
    vat = {}
    for price, qty, rate in lines:
        vat[rate] = vat.get(rate, Decimal(0)) + (Decimal(price) * qty * Decimal(rate) / 100).quantize(CENT, ROUND_HALF_UP)
    net = sum(_groups(lines).values(), Decimal(0))
    return _result(net, vat, net + sum(vat.values()))


def _total_once(lines):
    net = sum(_groups(lines).values(), Decimal(0))
    exact = {r: n * Decimal(r) / 100 for r, n in _groups(lines).items()}
    vat = {r: v.quantize(CENT, ROUND_HALF_UP) for r, v in exact.items()}
    return _result(net, vat, (net + sum(exact.values())).quantize(CENT, ROUND_HALF_UP))


def _exact_binary(lines):
    """Floats, rounded half up on the exact binary value (as toFixed does)."""
    groups = {}
    for price, qty, rate in lines:
        groups[rate] = groups.get(rate, 0.0) + float(price) * qty
    vat = {r: Decimal(n * float(r) / 100).quantize(CENT, ROUND_HALF_UP) for r, n in groups.items()}
    net = Decimal(sum(groups.values())).quantize(CENT, ROUND_HALF_UP)
    return _result(net, vat, net + sum(vat.values()))


WRONG = {
    "floats, Math.round(x * 100) / 100": _floats,
    "floats, toFixed": _exact_binary,
    "each line's VAT rounded": _per_line,
    "half to even": lambda lines: _stated(lines, ROUND_HALF_EVEN),
    "truncated": lambda lines: _stated(lines, ROUND_DOWN),
    "total from the unrounded VAT": _total_once,
}


def test_the_expected_figures_are_the_stated_formula():
    for lines, want in CASES:
        assert _stated(lines) == want, f"CASES: {lines} is not the stated formula: {_stated(lines)}"


@pytest.mark.parametrize("name", sorted(WRONG))
def test_data_separates_the_wrong_formula(name):
    """Proves the cases above tell this wrong formula from the right one (a check on the data)."""
    differs = [lines for lines, want in CASES if WRONG[name](lines) != want]
    assert differs, f"no case separates the wrong formula '{name}' from the right one"
