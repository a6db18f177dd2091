from dataclasses import dataclass

from shop import money
from shop.cart import Cart


@dataclass
class Invoice:
    number: str
    cart: Cart
    vat_rate_percent: int = 20

    @property
    def currency(self) -> str:
        return self.cart.currency

    @property
    def vat_cents(self) -> int:
        # VAT on the total, rounded half up to the cent.
        return (self.cart.total_cents * self.vat_rate_percent + 50) // 100

    def render(self) -> str:
        return "\n".join(
            [
                f"Invoice {self.number}",
                self.cart.summary(),
                f"VAT {self.vat_rate_percent}%: {money.format_price(self.vat_cents, self.currency)}",
                f"To pay: {money.format_price(self.cart.total_cents + self.vat_cents, self.currency)}",
            ]
        )
