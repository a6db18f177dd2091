import importlib
import math
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, ROUND_UP, Decimal

import pytest

# calls -> the charge: the graduated tiers summed exactly, rounded once, half up
CASES = {
    0: "0.00",
    999: "0.00",
    1_000: "0.00",
    1_001: "0.00",  # $0.000375
    1_013: "0.00",  # 13 calls: $0.004875
    1_040: "0.02",  # $0.015 exactly: half a cent rounds up (a float sum is 0.01499...)
    1_120: "0.05",  # $0.045 exactly
    2_333: "0.50",  # $0.499875
    3_760: "1.04",  # $1.035 exactly
    10_000: "3.38",  # $3.375 exactly
    10_001: "3.38",
    10_034: "3.38",  # $3.3801
    10_133: "3.39",  # $3.39495: a price a little too high, or one call too many, rounds up
    14_600: "4.07",  # $4.065 exactly (a float sum of the tiers' prices per 1,000 is 4.06499...)
    50_000: "9.38",  # the prompt's example
    100_000: "16.88",  # $16.875 exactly
    100_001: "16.88",
    100_124: "16.88",  # $16.88492
    250_000: "28.88",
    1_234_567: "107.64",  # $107.64036
    20_000_000: "1608.88",  # $1608.875 exactly
}


def charge(calls):
    try:
        mod = importlib.import_module("billing")
    except Exception as exc:
        pytest.fail(f"could not import billing.py: {exc!r}")
    return mod.usage_charge(calls)


@pytest.mark.parametrize(("calls", "want"), sorted(CASES.items()))
def test_charge(calls, want):
    got = charge(calls)
    assert isinstance(got, Decimal), f"usage_charge({calls}) should return a Decimal, got {got!r}"
    assert got == Decimal(want), f"usage_charge({calls}) returned {got}, expected {want}"
    assert str(got) == want, f"usage_charge({calls}) returned {str(got)!r}: expected two decimal places, {want!r}"


@pytest.mark.parametrize("calls", [-1, -1000])
def test_negative_calls_raise(calls):
    with pytest.raises(ValueError):
        got = charge(calls)
        pytest.fail(f"usage_charge({calls}) returned {got!r} instead of raising ValueError")


# --- the data above separates the plausible wrong formulas -----------------------------------
TIERS = [(1_000, Decimal(0)), (10_000, Decimal("0.000375")), (100_000, Decimal("0.00015")),
         (None, Decimal("0.00008"))]
CENT = Decimal("0.01")


def _parts(calls, shift=0):
    out, below = [], 0
    for upto, price in TIERS:
        top = calls if upto is None else min(calls, upto + shift)
        if top > below:
            out.append((top - below, price))
        if upto is None or calls <= upto + shift:
            break
        below = upto + shift
    return out


def _exact(calls, shift=0):
    return sum((n * p for n, p in _parts(calls, shift)), Decimal(0))


WRONG = {
    "float sum, round()": lambda c: Decimal(str(round(sum(n * float(p) for n, p in _parts(c)), 2))),
    "float sum, floor(x*100+0.5)": lambda c: Decimal(math.floor(sum(n * float(p) for n, p in _parts(c)) * 100 + 0.5)) / 100,
    "float per 1,000, str, half up": lambda c: Decimal(str(sum(n * (float(p) * 1000) / 1000 for n, p in _parts(c)))).quantize(CENT, ROUND_HALF_UP),
    "float sum, .2f": lambda c: Decimal(f"{sum(n * float(p) for n, p in _parts(c)):.2f}"),
    "each tier rounded half up": lambda c: sum(((n * p).quantize(CENT, ROUND_HALF_UP) for n, p in _parts(c)), Decimal(0)),
    "each tier rounded up": lambda c: sum(((n * p).quantize(CENT, ROUND_UP) for n, p in _parts(c)), Decimal(0)),
    "half to even": lambda c: _exact(c).quantize(CENT, ROUND_HALF_EVEN),
    "truncated": lambda c: _exact(c).quantize(CENT, ROUND_DOWN),
    "rounded up": lambda c: _exact(c).quantize(CENT, ROUND_UP),
    "tiers start one call early": lambda c: _exact(c, -1).quantize(CENT, ROUND_HALF_UP),
    "tiers start one call late": lambda c: _exact(c, 1).quantize(CENT, ROUND_HALF_UP),
    "volume pricing": lambda c: (max(0, c - 1_000) * next(p for u, p in TIERS if u is None or c <= u)).quantize(CENT, ROUND_HALF_UP),
}


def test_the_expected_figures_are_the_stated_formula():
    for calls, want in CASES.items():
        assert _exact(calls).quantize(CENT, ROUND_HALF_UP) == Decimal(want), f"CASES[{calls}] is not the stated formula"


@pytest.mark.parametrize("name", sorted(WRONG))
def test_data_separates_the_wrong_formula(name):
    """Proves the cases above tell this wrong formula from the right one (a check on the data)."""
    differs = [c for c, want in CASES.items() if WRONG[name](c) != Decimal(want)]
    assert differs, f"no case separates the wrong formula '{name}' from the right one"
