import datetime


def add_business_days(start, days, holidays=()):
    off = set(holidays)
    current = start
    while days > 0:
        current += datetime.timedelta(days=1)
        if current.weekday() < 5 and current not in off:
            days -= 1
    return current
