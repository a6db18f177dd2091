"""Delivery estimates: add business days to a date."""
import datetime


def add_business_days(start: datetime.date, days: int, holidays=()) -> datetime.date:
    current = start
    remaining = days
    while remaining > 0:
        current += datetime.timedelta(days=1)
        if current.weekday() >= 5:  # Saturday or Sunday
            continue
        if current in holidays:
            continue
        remaining -= 1
    return current
