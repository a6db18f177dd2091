import datetime
import importlib

import pytest

def load():
    try:
        return importlib.import_module("workdays")
    except Exception as exc:
        pytest.fail(f"could not import workdays.py: {exc!r}")


D = datetime.date


@pytest.mark.parametrize("start, days, expected", [
    (D(2024, 3, 4), 1, D(2024, 3, 5)),     # Monday + 1
    (D(2024, 3, 8), 1, D(2024, 3, 11)),    # Friday + 1 -> Monday
    (D(2024, 3, 9), 1, D(2024, 3, 11)),    # Saturday + 1 -> Monday
    (D(2024, 3, 10), 1, D(2024, 3, 11)),   # Sunday + 1 -> Monday
    (D(2024, 3, 4), 5, D(2024, 3, 11)),    # a full week
    (D(2024, 3, 4), 0, D(2024, 3, 4)),
    (D(2024, 3, 9), 0, D(2024, 3, 9)),     # 0 days from a Saturday: unchanged
    (D(2024, 2, 28), 2, D(2024, 3, 1)),    # leap year
    (D(2024, 12, 30), 3, D(2025, 1, 2)),
])
def test_without_holidays(start, days, expected):
    got = load().add_business_days(start, days)
    assert got == expected, f"add_business_days({start}, {days}) should be {expected}, got {got}"


def test_holidays_are_skipped():
    xmas = [D(2024, 12, 25), D(2024, 12, 26)]
    got = load().add_business_days(D(2024, 12, 24), 1, holidays=xmas)
    assert got == D(2024, 12, 27), f"one business day after Dec 24 with 25/26 off is Dec 27, got {got}"
    got = load().add_business_days(D(2024, 12, 23), 3, holidays=iter(xmas))
    assert got == D(2024, 12, 30), f"holidays may be any iterable; expected Dec 30, got {got}"


def test_holiday_on_a_weekend_changes_nothing():
    got = load().add_business_days(D(2024, 3, 8), 1, holidays={D(2024, 3, 9)})
    assert got == D(2024, 3, 11), got


def count_day_by_day(start, days, off):
    """The definition, step by step: the checks' own oracle."""
    current = start
    while days:
        current += datetime.timedelta(days=1)
        if current.weekday() < 5 and current not in off:
            days -= 1
    return current


HOLIDAY_SETS = [
    (),
    (D(2024, 3, 6), D(2024, 3, 13), D(2024, 3, 16)),         # two Wednesdays and a Saturday
    (D(2024, 3, 8), D(2024, 3, 11), D(2024, 3, 12)),         # a long weekend
    tuple(D(2024, 3, d) for d in range(18, 23)),             # a whole week off
]


@pytest.mark.parametrize("holidays", range(len(HOLIDAY_SETS)))
@pytest.mark.parametrize("weekday", range(7))
def test_spans_of_weeks(weekday, holidays):
    """Every weekday as the start, spans from 0 to 25 business days, holidays inside them."""
    off = HOLIDAY_SETS[holidays]
    start = D(2024, 3, 4) + datetime.timedelta(days=weekday)  # Monday 4 March + weekday
    mod = load()
    for days in range(26):
        expected = count_day_by_day(start, days, set(off))
        got = mod.add_business_days(start, days, holidays=list(off))
        assert got == expected, (
            f"add_business_days({start} ({start:%A}), {days}, holidays={[str(d) for d in off]}) "
            f"should be {expected}, got {got}")
