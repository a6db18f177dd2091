"""Luhn check for the checkout form."""
import re

_ALLOWED = re.compile(r"[0-9 -]*")


def is_valid_card(number: str) -> bool:
    if not isinstance(number, str) or not _ALLOWED.fullmatch(number):
        return False
    digits = [int(c) for c in number if c.isdigit()]
    if not 12 < len(digits) < 19:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d = d * 2 % 9 if d != 9 else 9
        total += d
    return total % 10 == 0
