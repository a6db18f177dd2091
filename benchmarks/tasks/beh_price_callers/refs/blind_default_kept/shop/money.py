"""Money is kept in whole cents (ints), never in floats."""


SYMBOLS = {"EUR": "€", "GBP": "£"}


def format_price(cents: int, currency: str = "EUR") -> str:
    """Cents as the shop shows them: 1250, "EUR" -> '€12.50'; 1250, "GBP" -> '£12.50'."""
    if currency not in SYMBOLS:
        raise ValueError(f"unsupported currency: {currency!r}")
    return f"{SYMBOLS[currency]}{cents // 100}.{cents % 100:02d}"
