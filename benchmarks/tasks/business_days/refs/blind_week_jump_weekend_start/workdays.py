"""Delivery estimates: add business days to a date."""
import datetime

_ONE = datetime.timedelta(days=1)


def _is_business(day: datetime.date, holidays: set[datetime.date]) -> bool:
    return day.weekday() < 5 and day not in holidays


def add_business_days(start: datetime.date, days: int, holidays=()) -> datetime.date:
    hol = set(holidays)
    # Five business days are one calendar week; jump those in one step so long
    # estimates stay fast, then walk the rest day by day.
    weeks, rest = divmod(days, 5)
    current = start
    for _ in range(weeks):
        week_end = current + datetime.timedelta(weeks=1)
        # A holiday inside the jumped week costs one extra business day.
        lost = sum(
            1
            for i in range(1, 8)
            if (current + i * _ONE) in hol and (current + i * _ONE).weekday() < 5
        )
        current = week_end
        rest += lost
    while rest > 0:
        current += _ONE
        if _is_business(current, hol):
            rest -= 1
    return current
