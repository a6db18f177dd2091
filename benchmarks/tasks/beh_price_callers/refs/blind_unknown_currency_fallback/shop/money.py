"""Money is kept in whole cents (ints), never in floats."""


SYMBOLS = {"EUR": "€", "GBP": "£"}


def format_price(cents: int, currency: str) -> str:
    """Cents as the shop shows them: 1250, "EUR" -> '€12.50'; 1250, "GBP" -> '£12.50'."""
    symbol = SYMBOLS.get(currency.upper(), "€")
    return f"{symbol}{cents // 100}.{cents % 100:02d}"
