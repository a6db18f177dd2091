from datetime import date, timedelta


def _is_workday(day, off):
    return day.weekday() < 5 and day not in off


def add_business_days(start: date, days: int, holidays=()) -> date:
    off = frozenset(holidays)
    weeks, rest = divmod(days, 5)
    current = start
    # move to the last business day at or before start, so whole weeks land on business days
    while weeks and not _is_workday(current, frozenset()):
        current -= timedelta(days=1)
    current += timedelta(weeks=weeks)
    skipped = sum(1 for i in range((current - start).days) if (start + timedelta(days=i + 1)) in off
                  and (start + timedelta(days=i + 1)).weekday() < 5)
    rest += skipped
    while rest:
        current += timedelta(days=1)
        if _is_workday(current, off):
            rest -= 1
    return current if days else start
