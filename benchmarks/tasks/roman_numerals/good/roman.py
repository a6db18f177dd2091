PAIRS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
         (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n: int) -> str:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 3999:
        raise ValueError(f"cannot write {n!r} in Roman numerals")
    out = []
    for value, letters in PAIRS:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


_BACK = {to_roman(i): i for i in range(1, 4000)}


def from_roman(text: str) -> int:
    try:
        return _BACK[text]
    except (KeyError, TypeError):
        raise ValueError(f"not a standard Roman numeral: {text!r}") from None
