"""Discount codes. Each code maps to a rule; discount_for() says how many cents it takes off."""

from dataclasses import dataclass


class UnknownCode(KeyError):
    """No discount code with that name."""


CODES = {
    "SAVE10": {"kind": "percent", "percent": 10},
    "FIVEOFF": {"kind": "fixed", "cents": 500},
    "TEA3FOR2": {"kind": "bogo", "sku": "tea", "buy": 2},
}


@dataclass(frozen=True)
class Percent:
    percent: int

    def amount(self, cart):
        return cart.subtotal() * self.percent // 100


@dataclass(frozen=True)
class Fixed:
    cents: int

    def amount(self, cart):
        return self.cents


@dataclass(frozen=True)
class BuyNGetOne:
    sku: str
    buy: int

    def amount(self, cart):
        qty = cart.quantities.get(self.sku, 0)
        free = qty // (self.buy + 1)
        return free * cart.catalog.get(self.sku).price_cents if free else 0


_KINDS = {"percent": Percent, "fixed": Fixed, "bogo": BuyNGetOne}


def _compile(code, rule):
    try:
        kind = _KINDS[rule["kind"]]
    except KeyError:
        raise ValueError(f"code {code!r} has an unknown kind {rule['kind']!r}") from None
    return kind(**{k: v for k, v in rule.items() if k != "kind"})


_RULES = {code: _compile(code, rule) for code, rule in CODES.items()}


def discount_for(code, cart):
    """Cents that `code` takes off `cart`: never more than the cart's subtotal."""
    try:
        rule = _RULES[code]
    except KeyError:
        raise UnknownCode(code) from None
    return min(rule.amount(cart), cart.subtotal())
