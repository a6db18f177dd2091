"""Luhn check for the checkout form."""


def is_valid_card(number: str) -> bool:
    if not isinstance(number, str):
        return False
    digits = "".join(number.split()).replace("-", "")
    if not 12 <= len(digits) <= 19:
        return False
    if any(c not in "0123456789" for c in digits):
        return False
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = int(c)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0
