from dataclasses import dataclass, field

from shop.money import format_price


@dataclass
class Line:
    name: str
    unit_cents: int
    quantity: int = 1

    @property
    def total_cents(self) -> int:
        return self.unit_cents * self.quantity


@dataclass
class Cart:
    currency: str = "EUR"
    lines: list[Line] = field(default_factory=list)

    def add(self, name: str, unit_cents: int, quantity: int = 1) -> None:
        self.lines.append(Line(name, unit_cents, quantity))

    @property
    def total_cents(self) -> int:
        return sum(line.total_cents for line in self.lines)

    def summary(self) -> str:
        """One line per item, then the total."""
        rows = [f"{line.quantity} x {line.name}: {format_price(line.total_cents, self.currency)}" for line in self.lines]
        rows.append(f"Total: {format_price(self.total_cents, self.currency)}")
        return "\n".join(rows)
