"""Luhn check for the checkout form."""


def is_valid_card(number: str) -> bool:
    if not isinstance(number, str):
        return False
    digits = []
    for ch in number:
        if ch in " -":
            continue
        if ch not in "0123456789":
            return False
        digits.append(ord(ch) - ord("0"))
    if len(digits) < 12 or len(digits) > 19:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        # Doubling then summing the two digits equals 2d mod 9.
        total += (2 * d) % 9 if i % 2 else d
    return total % 10 == 0
