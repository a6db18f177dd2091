def _cell(value):
    text = str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        text = "'" + text
    if any(c in text for c in ',"\n\r'):
        text = '"' + text.replace('"', '""') + '"'
    return text


def _price(cents):
    return f"{cents // 100}.{cents % 100:02d}"


def cart_to_csv(cart):
    lines = ["sku,name,quantity,unit_price,line_total"]
    for product, qty, total in cart.lines():
        cells = [product.sku, product.name, qty, _price(product.price_cents), _price(total)]
        lines.append(",".join(_cell(c) for c in cells))
    return "\n".join(lines) + "\n"
