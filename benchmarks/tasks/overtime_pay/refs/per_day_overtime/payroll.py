import re
from decimal import ROUND_HALF_UP, Decimal


def weekly_pay(hours, rate):
    if not re.fullmatch(r"\d+(\.\d\d?)?", rate):
        raise ValueError(rate)
    r = Decimal(rate)
    pay = Decimal(0)
    for h in hours:
        if not re.fullmatch(r"\d+(\.\d\d?)?", h):
            raise ValueError(h)
        d = Decimal(h)
        pay += min(d, Decimal(8)) * r + max(d - 8, Decimal(0)) * r * Decimal("1.5")
    return str(pay.quantize(Decimal("0.01"), ROUND_HALF_UP))
