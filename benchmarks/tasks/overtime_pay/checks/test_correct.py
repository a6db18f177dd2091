import importlib
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

import pytest


def load():
    try:
        return importlib.import_module("payroll")
    except Exception as exc:
        pytest.fail(f"could not import payroll.py: {exc!r}")


# (hours, rate, pay). Each case is there for a plausible wrong formula it tells apart
# (test_the_data_separates_the_wrong_formulas proves it).
CASES = [
    (["10", "10", "10", "10", "2.5"], "20", "875.00"),                # the prompt's example
    (["8.25", "8.25", "8.25", "8.25", "8.25"], "18.35", "768.41"),     # days rounded: 768.42
    (["7.75", "7.75", "7.75", "7.75", "7.75"], "18.15", "703.31"),     # days rounded: 703.30
    (["9.25", "9.25", "9.25", "9.25", "4.75"], "18.35", "782.17"),     # overtime rate to cents first
    (["40", "0.5"], "16.87", "687.45"),                                # overtime rate to cents first
    (["0.01"], "0.50", "0.01"),                                        # 0.005: half up, not to even
    (["1.5", "2.5", "8.75", "12.05", "0.5"], "17.25", "436.43"),       # 436.425: half up, not to even
    (["2.75", "12"], "29.06", "428.64"),                               # 428.635 exactly; a float is below
    (["2.5", "12.75", "7.25"], "24.99", "562.28"),                     # 562.275 exactly; a float is below
    (["1.5"], "12.45", "18.68"),                                       # 18.675; a float's repr is below
    (["8", "10.5", "6.5", "4.5"], "24.83", "732.49"),                  # 732.485; a float's repr is below
    (["12", "9.5", "10.5", "9.5", "1.5"], "15.87", "706.22"),          # 706.215; a float's repr is below
    (["12", "12", "7.5", "4.5", "4.5"], "27.58", "1123.89"),           # 1123.885; a float's repr is below
    (["8", "8", "8", "8", "8", "0.5"], "20.01", "815.41"),             # overtime per week, not per day
    (["8", "8", "8", "8", "8"], "25", "1000.00"),                      # exactly 40 hours: no overtime
    (["40.01"], "10", "400.15"),                                       # one hundredth of an hour over
    (["24", "24", "24", "24", "24", "24", "24"], "99.99", "23197.68"), # no thousands separator
    (["0", "0"], "21", "0.00"),
    (["8"], "21", "168.00"),
    (["0.33"], "0.01", "0.00"),                                        # 0.0033: down
    (["0.4"], "0.01", "0.00"),                                         # 0.004: down
    (["0.49", "0.01"], "1.01", "0.51"),                                # 0.505: up
]


@pytest.mark.parametrize("hours, rate, pay", CASES, ids=[c[2] for c in CASES])
def test_weekly_pay(hours, rate, pay):
    mod = load()
    try:
        got = mod.weekly_pay(list(hours), rate)
    except Exception as exc:
        pytest.fail(f"weekly_pay({hours!r}, {rate!r}) raised {exc!r}")
    assert isinstance(got, str) and got == pay, (
        f"weekly_pay({hours!r}, {rate!r}) returned {got!r}, expected {pay!r}: 40 hours at the rate, "
        "the rest at 1.5 x the rate, computed exactly and rounded once on the total, half up")


BAD = [
    (["-1"], "20"), (["1.234"], "20"), ([""], "20"), (["abc"], "20"), (["NaN"], "20"),
    (["inf"], "20"), (["8", "x"], "20"), (["8"], "-5"), (["8"], "18.355"), (["8"], ""),
    (["8"], "nan"), (["8"], "twenty"),
]


@pytest.mark.parametrize("hours, rate", BAD, ids=[f"{h}-{r}" for h, r in BAD])
def test_malformed_values_raise_value_error(hours, rate):
    mod = load()
    with pytest.raises(ValueError):
        mod.weekly_pay(list(hours), rate)


@pytest.mark.parametrize("hours, rate", [([7.5], "20"), (["7.5"], 20), ([8], "20.5")],
                         ids=["float-hours", "int-rate", "int-hours"])
def test_values_that_are_not_strings_raise_value_error(hours, rate):
    mod = load()
    with pytest.raises(ValueError):
        mod.weekly_pay(list(hours), rate)


# --- the data above separates the plausible wrong formulas ---------------------------------------
def _split(hours):
    total = sum(map(Decimal, hours), Decimal(0))
    return min(total, Decimal(40)), max(total - 40, Decimal(0))


def _exact(hours, rate, rounding):
    regular, overtime = _split(hours)
    r = Decimal(rate)
    return str((regular * r + overtime * r * Decimal("1.5")).quantize(Decimal("0.01"), rounding))


def _per_day(hours, rate):
    r, done, pay = Decimal(rate), Decimal(0), Decimal(0)
    for h in map(Decimal, hours):
        regular = max(min(h, 40 - done), Decimal(0))
        done += h
        day = regular * r + (h - regular) * r * Decimal("1.5")
        pay += day.quantize(Decimal("0.01"), ROUND_HALF_UP)
    return f"{pay:.2f}"


def _overtime_rate_rounded(hours, rate):
    regular, overtime = _split(hours)
    r = Decimal(rate)
    ot = (r * Decimal("1.5")).quantize(Decimal("0.01"), ROUND_HALF_UP)
    return str((regular * r + overtime * ot).quantize(Decimal("0.01"), ROUND_HALF_UP))


def _float(hours, rate):
    total = sum(float(h) for h in hours)
    regular = min(total, 40.0)
    return f"{round(regular * float(rate) + (total - regular) * float(rate) * 1.5, 2):.2f}"


def _float_repr(hours, rate):
    total = sum(float(h) for h in hours)
    regular = min(total, 40.0)
    pay = regular * float(rate) + (total - regular) * float(rate) * 1.5
    return str(Decimal(repr(pay)).quantize(Decimal("0.01"), ROUND_HALF_UP))


def _per_day_overtime(hours, rate):
    r = Decimal(rate)
    pay = sum((min(h, Decimal(8)) * r + max(h - 8, Decimal(0)) * r * Decimal("1.5")
               for h in map(Decimal, hours)), Decimal(0))
    return str(pay.quantize(Decimal("0.01"), ROUND_HALF_UP))


WRONG = {
    "half to even": lambda h, r: _exact(h, r, ROUND_HALF_EVEN),
    "truncated": lambda h, r: _exact(h, r, ROUND_DOWN),
    "each day rounded": _per_day,
    "overtime rate rounded to cents": _overtime_rate_rounded,
    "binary floats": _float,
    "binary floats, rounded from their repr": _float_repr,
    "overtime per day beyond 8 hours": _per_day_overtime,
}
# Rounding the regular and the overtime part apart is no wrong formula here: the regular part of
# a week with overtime is 40 x the rate, whole cents, so it never changes the total.


@pytest.mark.parametrize("name", sorted(WRONG))
def test_the_data_separates_the_wrong_formulas(name):
    assert all(_exact(h, r, ROUND_HALF_UP) == pay for h, r, pay in CASES), "a case's pay is wrong"
    separating = [pay for h, r, pay in CASES if WRONG[name](h, r) != pay]
    assert len(separating) >= 2, f"fewer than two cases separate the wrong formula {name!r}: {separating}"
