import re

NUMERALS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
            (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
VALID = re.compile(r"^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")


def to_roman(n):
    if not isinstance(n, int) or isinstance(n, bool) or n < 1 or n > 3999:
        raise ValueError(f"{n!r} is out of range")
    result = ""
    for value, letters in NUMERALS:
        while n >= value:
            result += letters
            n -= value
    return result


def from_roman(text):
    if not text or not VALID.match(text):
        raise ValueError(f"{text!r} is not a Roman numeral")
    text = text.strip()
    total, i = 0, 0
    for value, letters in NUMERALS:
        while text.startswith(letters, i):
            total += value
            i += len(letters)
    return total
