"""Luhn check for the checkout form."""


def is_valid_card(number: str) -> bool:
    try:
        cleaned = number.replace(" ", "").replace("-", "")
    except AttributeError:
        return False
    if not cleaned.isdecimal() or not 12 <= len(cleaned) <= 19:
        return False
    digits = [int(c) for c in cleaned]
    checksum = 0
    for pos, d in enumerate(reversed(digits)):
        if pos % 2:
            d = d * 2
            d = d - 9 if d > 9 else d
        checksum += d
    return checksum % 10 == 0
