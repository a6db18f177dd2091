def is_valid_card(number):
    if not 12 <= len(number) <= 19:
        return False
    digits = number.replace(" ", "").replace("-", "")
    if not digits or any(c not in "0123456789" for c in digits):
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0
