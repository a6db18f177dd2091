import re

_STANDARD = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")
_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_DIGITS = [("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"),
           ("", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"),
           ("", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"),
           ("", "M", "MM", "MMM")]


def to_roman(n):
    if type(n) is not int or not 0 < n < 4000:
        raise ValueError(f"out of range: {n!r}")
    return "".join(_DIGITS[i][int(d)] for i, d in reversed(list(enumerate(reversed(str(n))))))


def from_roman(text):
    if not isinstance(text, str) or not text or not _STANDARD.fullmatch(text):
        raise ValueError(f"not a standard numeral: {text!r}")
    values = [_VALUES[c] for c in text]
    return sum(-v if i + 1 < len(values) and values[i + 1] > v else v for i, v in enumerate(values))
