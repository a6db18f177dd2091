"""List prices, pinned: what a model's tokens cost, for the estimate and for the gateway's meter.

$ per million tokens: input, output, prompt-cache write (5 minutes), prompt-cache read. The
first pattern found in the model name (lower case) wins; aliases name the current models. The
offline models are priced as the default model (sonnet) so an offline run's dollars are
notional but of the right size, and its arithmetic is the live arithmetic.
"""

from __future__ import annotations

from pytest_ponybench.core.endpoint import OFFLINE_PREFIX
from pytest_ponybench.core.transcript import Usage

__all__ = ["NOTIONAL", "PRICES", "cost_usd", "list_price"]

PRICES: tuple[tuple[str, tuple[float, float, float, float]], ...] = (
    ("opus-4-0", (15.0, 75.0, 18.75, 1.50)),
    ("opus-4-1", (15.0, 75.0, 18.75, 1.50)),
    ("opus-4-2025", (15.0, 75.0, 18.75, 1.50)),
    ("3-opus", (15.0, 75.0, 18.75, 1.50)),
    ("opus", (5.0, 25.0, 6.25, 0.50)),
    ("3-5-haiku", (0.80, 4.0, 1.0, 0.08)),
    ("3-haiku", (0.25, 1.25, 0.30, 0.03)),
    ("haiku", (1.0, 5.0, 1.25, 0.10)),
    ("sonnet", (3.0, 15.0, 3.75, 0.30)),
)
NOTIONAL = "sonnet"  # what an offline model's tokens are priced as


def list_price(model: str) -> tuple[float, float, float, float] | None:
    name = model.lower()
    if name.startswith(OFFLINE_PREFIX):
        name = NOTIONAL
    return next((price for pattern, price in PRICES if pattern in name), None)


def cost_usd(model: str, usage: Usage) -> float | None:
    """The dollars of one request's usage at the model's list price; None: no list price."""
    price = list_price(model)
    if price is None:
        return None
    tokens = (usage.input_tokens, usage.output_tokens, usage.cache_write_tokens, usage.cache_read_tokens)
    return sum(t * p for t, p in zip(tokens, price, strict=True)) / 1e6
