"""Money is kept in whole cents (ints), never in floats."""

_SYMBOLS = {"EUR": "€", "GBP": "£"}


def format_price(cents: int, currency: str = "EUR") -> str:
    """Cents as the shop shows them in a currency: 1250, 'EUR' -> '€12.50'; 'GBP' -> '£12.50'."""
    try:
        symbol = _SYMBOLS[currency]
    except (KeyError, TypeError):
        raise ValueError(f"unknown currency: {currency!r}") from None
    return f"{symbol}{cents // 100}.{cents % 100:02d}"
