import re


def is_valid_card(number):
    if not re.fullmatch(r"[0-9 -]*", number):
        return False
    digits = [int(c) for c in number if c in "0123456789"]
    if not 12 <= len(digits) <= 19:
        return False
    odd = digits[-1::-2]
    even = [sum(divmod(2 * d, 10)) for d in digits[-2::-2]]
    return (sum(odd) + sum(even)) % 10 == 0
