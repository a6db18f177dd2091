"""Delivery estimates: add business days to a date."""
import datetime

_ONE = datetime.timedelta(days=1)


def _skip_weekdays(start: datetime.date, days: int) -> datetime.date:
    current = start
    while days > 0:
        current += _ONE
        if current.weekday() < 5:
            days -= 1
    return current


def add_business_days(start: datetime.date, days: int, holidays=()) -> datetime.date:
    hol = sorted(set(holidays))
    end = _skip_weekdays(start, days)
    # Each holiday inside (start, end] costs one more business day; repeat until
    # no new holiday falls into the extended range.
    counted: set[datetime.date] = set()
    while True:
        new = [h for h in hol if start < h <= end and h not in counted]
        if not new:
            return end
        counted.update(new)
        end = _skip_weekdays(end, len(new))
