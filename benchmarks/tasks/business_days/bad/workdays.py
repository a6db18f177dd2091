import datetime


def add_business_days(start, days, holidays=()):
    off = set(holidays)
    current = start
    counted = 0
    while True:
        if current.weekday() < 5 and current not in off:
            counted += 1
        if counted > days or (days == 0):
            return current
        current += datetime.timedelta(days=1)
