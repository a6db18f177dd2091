"""Money is kept in whole cents (ints), never in floats."""


def format_price(cents: int, currency: str) -> str:
    """Cents as the shop shows them, in euros or pounds."""
    match currency:
        case "EUR":
            symbol = "\u20ac"
        case "GBP":
            symbol = "\u00a3"
        case _:
            raise ValueError(f"unsupported currency {currency!r}")
    euros, rest = divmod(cents, 100)
    return "%s%d.%02d" % (symbol, euros, rest)
