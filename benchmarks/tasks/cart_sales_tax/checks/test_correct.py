import importlib
import math
from fractions import Fraction

import pytest


def load():
    try:
        return importlib.import_module("shopcart")
    except Exception as exc:
        pytest.fail(f"could not import the shopcart package: {exc!r}")


# (products: sku -> (price, quantity), codes, rate, tax in cents). Each case is there for a
# plausible wrong formula it tells apart (test_the_data_separates_the_wrong_formulas proves it).
CASES = [
    ({"tea": ("2.50", 4)}, [], "8.25", 83),                      # 82.5: a half, up (not to even, not down)
    ({"tea": ("2.50", 12)}, [], "1.15", 35),                     # 34.5 exactly; total * float(rate) / 100 is 34.4999...
    ({"tea": ("2.50", 2)}, [], "2.9", 15),                       # 14.5 exactly; total * (float(rate) / 100) is 14.4999...
    ({"tea": ("2.00", 2)}, [], "7.125", 29),                     # 28.5: three decimals kept (7.12 gives 28.48)
    ({"tea": ("10.10", 1)}, [], "8.25", 83),                     # 83.325: to the nearest cent, not up
    ({"tea": ("1.10", 1), "cake": ("1.30", 1)}, [], "5", 12),   # 5.5 + 6.5 rounded per line is 13, on the total 12
    ({"cake": ("4.00", 3)}, ["SAVE10"], "8.25", 89),             # on the total after the code (before it: 99)
    ({"tea": ("9.99", 1)}, [], "100", 999),
    ({"tea": ("9.99", 1)}, [], "0", 0),
    ({"tea": ("2.50", 4)}, [], "8.250", 83),
    ({"tea": ("0.33", 1)}, [], "7.5", 2),                        # 2.475: down
    ({"tea": ("2.50", 1)}, ["FIVEOFF"], "8.25", 0),              # the total is 0
    ({"tea": ("499.99", 1)}, [], "0.001", 0),                    # 0.49999: just under a half, down
    ({"tea": ("1000.00", 1)}, [], "100", 100000),                # a large total, to the cent
    ({"tea": ("175.00", 1)}, [], "10.62", 1859),                 # 1858.5 exactly; total / 100 * float(rate) is 1858.4999...
]


def build(shopcart, products, codes):
    catalog = shopcart.Catalog.from_dict({sku: {"name": sku.title(), "price": price}
                                          for sku, (price, _) in products.items()})
    cart = shopcart.Cart(catalog)
    for sku, (_, qty) in products.items():
        cart.add(sku, qty)
    for code in codes:
        cart.apply_code(code)
    return cart


def describe(products, codes, rate):
    items = ", ".join(f"{qty} x {sku} at {price}" for sku, (price, qty) in products.items())
    return f"{items}{' with ' + ', '.join(codes) if codes else ''}, rate {rate!r}"


@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"{c[2]}-{c[3]}" for c in CASES])
def test_tax(case):
    products, codes, rate, expected = CASES[case]
    cart = build(load(), products, codes)
    try:
        got = cart.tax(rate)
    except Exception as exc:
        pytest.fail(f"Cart.tax({rate!r}) raised {exc!r} for {describe(products, codes, rate)}")
    assert type(got) is int and got == expected, (
        f"the tax on {describe(products, codes, rate)} (total {cart.total()} cents) should be "
        f"{expected} cents: {rate} % of the whole total, exact, halves rounded up; got {got!r}")


@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"{c[2]}-{c[3]}" for c in CASES])
def test_total_with_tax(case):
    products, codes, rate, expected = CASES[case]
    cart = build(load(), products, codes)
    total = cart.total()
    try:
        got = cart.total_with_tax(rate)
    except Exception as exc:
        pytest.fail(f"Cart.total_with_tax({rate!r}) raised {exc!r}")
    assert type(got) is int and got == total + expected, (
        f"total_with_tax({rate!r}) on {describe(products, codes, rate)} should be {total} + {expected}, got {got!r}")


BAD_RATES = ["", " 8.25", "8.25 ", "-1", "+8", "8.", ".5", "1e2", "8.2555", "8,25", "8.2.5", "abc", "8.25\n"]


@pytest.mark.parametrize("rate", BAD_RATES)
def test_bad_rate_is_a_value_error(rate):
    cart = build(load(), {"tea": ("2.50", 4)}, [])
    with pytest.raises(ValueError):
        cart.tax(rate)
    with pytest.raises(ValueError):
        cart.total_with_tax(rate)


def test_everything_else_unchanged():
    cart = build(load(), {"tea": ("2.50", 2)}, ["SAVE10"])
    assert cart.tax("8.25") == 37
    assert (cart.subtotal(), cart.discount(), cart.total()) == (500, 50, 450), "totals and codes stay as they are"
    assert cart.receipt() == "2 x Tea: $5.00\nDiscount (SAVE10): -$0.50\nTotal: $4.50", (
        f"the receipt stays as it is: {cart.receipt()!r}")


def test_the_data_separates_the_wrong_formulas():
    """Each plausible wrong formula gets at least one case wrong, so the data above can tell it
    from the contract (the checks of the cases above are only as good as their data)."""

    def lines(products):
        return [Fraction(price) * 100 * qty for price, qty in products.values()]

    def total(products, codes):
        sub = sum(lines(products))
        off = sum(min(sub * 10 // 100 if c == "SAVE10" else Fraction(500), sub) for c in codes)
        return max(sub - off, 0)

    half_up = lambda x: math.floor(x + Fraction(1, 2))  # noqa: E731
    wrong = {
        "floor": lambda p, c, r: math.floor(total(p, c) * Fraction(r) / 100),
        "ceil": lambda p, c, r: math.ceil(total(p, c) * Fraction(r) / 100),
        "half to even": lambda p, c, r: round(total(p, c) * Fraction(r) / 100),
        "float, then + 0.5": lambda p, c, r: int(float(total(p, c)) * float(r) / 100 + 0.5),
        "float rate / 100, then + 0.5": lambda p, c, r: int(float(total(p, c)) * (float(r) / 100) + 0.5),
        "float total / 100 * rate, then + 0.5": lambda p, c, r: int(float(total(p, c)) / 100 * float(r) + 0.5),
        "float, round()": lambda p, c, r: round(float(total(p, c)) * float(r) / 100),
        # per line (the cases with a code left at the contract's answer)
        "per line": lambda p, c, r: half_up(total(p, c) * Fraction(r) / 100) if c
                                    else sum(half_up(x * Fraction(r) / 100) for x in lines(p)),
        "on the subtotal": lambda p, c, r: half_up(total(p, []) * Fraction(r) / 100),
        "rate cut to 2 decimals": lambda p, c, r: half_up(total(p, c) * Fraction(r[:r.index(".") + 3] if "." in r else r) / 100),
    }
    for products, codes, rate, expected in CASES:
        assert half_up(total(products, codes) * Fraction(rate) / 100) == expected, (products, rate)
    for name, formula in wrong.items():
        assert any(formula(p, c, r) != e for p, c, r, e in CASES), f"no case tells the formula {name!r} apart"
