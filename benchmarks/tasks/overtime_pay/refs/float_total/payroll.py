import re


def weekly_pay(hours, rate):
    for v in [*hours, rate]:
        if not re.fullmatch(r"\d+(\.\d{1,2})?", v):
            raise ValueError(v)
    total = sum(float(h) for h in hours)
    regular = min(total, 40.0)
    overtime = total - regular
    pay = regular * float(rate) + overtime * float(rate) * 1.5
    return f"{round(pay, 2):.2f}"
