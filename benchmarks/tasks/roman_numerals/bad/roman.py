VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
PAIRS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
         (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n):
    if not 1 <= n <= 3999:
        raise ValueError(n)
    out = ""
    for value, letters in PAIRS:
        while n >= value:
            out += letters
            n -= value
    return out


def from_roman(text):
    if not text or any(c not in VALUES for c in text):
        raise ValueError(text)
    total = 0
    for i, c in enumerate(text):
        v = VALUES[c]
        total += -v if i + 1 < len(text) and VALUES[text[i + 1]] > v else v
    return total
