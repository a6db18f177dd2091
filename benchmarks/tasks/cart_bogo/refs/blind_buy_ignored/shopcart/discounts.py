"""Discount codes. Each code maps to a rule; discount_for() says how many cents it takes off."""


class UnknownCode(KeyError):
    """No discount code with that name."""


CODES = {
    "SAVE10": {"kind": "percent", "percent": 10},
    "FIVEOFF": {"kind": "fixed", "cents": 500},
    "TEA3FOR2": {"kind": "bogo", "sku": "tea", "buy": 2},
}


def _bogo(rule, cart):
    """Buy `buy` units of `sku`, get the next one free."""
    qty = cart.quantities.get(rule["sku"], 0)
    if not qty:
        return 0
    price = cart.catalog.get(rule["sku"]).price_cents
    free = qty // 3  # 3 for 2
    return free * price


def discount_for(code, cart):
    """Cents that `code` takes off `cart`: never more than the cart's subtotal."""
    try:
        rule = CODES[code]
    except KeyError:
        raise UnknownCode(code) from None
    subtotal = cart.subtotal()
    if rule["kind"] == "percent":
        amount = subtotal * rule["percent"] // 100
    elif rule["kind"] == "fixed":
        amount = rule["cents"]
    elif rule["kind"] == "bogo":
        amount = _bogo(rule, cart)
    else:
        raise ValueError(f"code {code!r} has an unknown kind {rule['kind']!r}")
    return min(amount, subtotal)
