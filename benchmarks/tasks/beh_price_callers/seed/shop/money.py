"""Money is kept in whole cents (ints), never in floats."""


def format_price(cents: int) -> str:
    """Cents as the shop shows them: 1250 -> '€12.50'."""
    return f"€{cents // 100}.{cents % 100:02d}"
