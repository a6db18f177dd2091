"""Chapter numbers for the e-book builder: Roman numerals 1..3999."""
import re

_VALUES = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),
    (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
    (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]
_DIGIT = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}



def to_roman(n: int) -> str:
    if not isinstance(n, int) or not 1 <= n <= 3999:
        raise ValueError(f"{n!r} is outside 1..3999")
    parts = []
    for value, symbol in _VALUES:
        count, n = divmod(n, value)
        parts.append(symbol * count)
    return "".join(parts)


def from_roman(text: str) -> int:
    # Accept 'xiv' as well as 'XIV'; the round trip rejects IIII, VV, IC and friends.
    numeral = text.strip().upper()
    if not numeral or any(ch not in _DIGIT for ch in numeral):
        raise ValueError(f"not a Roman numeral: {text!r}")
    total = 0
    for i, ch in enumerate(numeral):
        value = _DIGIT[ch]
        if i + 1 < len(numeral) and _DIGIT[numeral[i + 1]] > value:
            total -= value
        else:
            total += value
    if not 1 <= total <= 3999 or to_roman(total) != numeral:
        raise ValueError(f"not a standard Roman numeral: {text!r}")
    return total
