"""Delivery estimates: add business days to a date."""
import datetime

_ONE = datetime.timedelta(days=1)


def add_business_days(start: datetime.date, days: int, holidays=()) -> datetime.date:
    hol = frozenset(holidays)

    def business(d: datetime.date) -> bool:
        return d.weekday() < 5 and d not in hol

    # An order placed on a non-working day is handled on the next working day.
    current = start
    while not business(current):
        current += _ONE
    moved = current != start
    remaining = days - 1 if moved and days > 0 else days
    while remaining > 0:
        current += _ONE
        if business(current):
            remaining -= 1
    return current
