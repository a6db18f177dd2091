"""Chapter numbers for the e-book builder: Roman numerals 1..3999."""
import re

_VALUES = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),
    (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
    (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]
_DIGIT = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}

_STANDARD = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")


def to_roman(n: int) -> str:
    if not 1 <= n <= 3999:
        raise ValueError(f"{n} is outside 1..3999")
    out = []
    for value, symbol in _VALUES:
        count, n = divmod(n, value)
        out.append(symbol * count)
    return "".join(out)


def from_roman(text: str) -> int:
    if not _STANDARD.fullmatch(text):
        raise ValueError(f"not a standard Roman numeral: {text!r}")
    total = 0
    for i, ch in enumerate(text):
        value = _DIGIT[ch]
        if i + 1 < len(text) and _DIGIT[text[i + 1]] > value:
            total -= value
        else:
            total += value
    return total
