"""Tests for `core/prices.py`: a model's list price found by the first pattern in its name, the
offline models priced as the notional one, and one request's dollars."""

from __future__ import annotations

import math

import pytest

from pytest_ponybench.core.prices import NOTIONAL, PRICES, cost_usd, list_price
from pytest_ponybench.core.transcript import Usage

SONNET = (3.0, 15.0, 3.75, 0.30)


@pytest.mark.parametrize(
    ("model", "price"),
    [
        ("sonnet", SONNET),
        ("claude-sonnet-4-5-20250929", SONNET),
        ("Claude-SONNET-4", SONNET),  # the name is read in lower case
        ("opus", (5.0, 25.0, 6.25, 0.50)),
        ("claude-opus-4-1-20250805", (15.0, 75.0, 18.75, 1.50)),  # before the bare "opus"
        ("claude-3-opus-20240229", (15.0, 75.0, 18.75, 1.50)),
        ("claude-3-5-haiku-20241022", (0.80, 4.0, 1.0, 0.08)),  # before "3-haiku" and "haiku"
        ("claude-3-haiku-20240307", (0.25, 1.25, 0.30, 0.03)),
        ("claude-haiku-4-5", (1.0, 5.0, 1.25, 0.10)),
    ],
)
def test_the_first_pattern_in_the_name_wins(model: str, price: tuple[float, ...]) -> None:
    assert list_price(model) == price


def test_each_pattern_is_reached_before_any_that_it_contains() -> None:
    # A pattern listed after one it contains could never be found first.
    patterns = [p for p, _price in PRICES]
    for i, later in enumerate(patterns):
        assert not any(earlier in later for earlier in patterns[:i]), later


def test_offline_models_are_priced_as_the_notional_model() -> None:
    assert list_price("offline-reference") == list_price("offline-flawed") == list_price(NOTIONAL)
    assert list_price("offline-opus-like") == list_price(NOTIONAL)  # the prefix decides, not the rest


def test_a_model_without_a_list_price_has_no_cost() -> None:
    assert list_price("gpt-5") is None
    assert cost_usd("gpt-5", Usage(input_tokens=1000)) is None


def test_the_dollars_of_a_request_at_the_list_price() -> None:
    usage = Usage(
        input_tokens=1_000_000, output_tokens=2_000_000, cache_read_tokens=4_000_000, cache_write_tokens=0
    )
    assert math.isclose(cost_usd("sonnet", usage) or 0.0, 3.0 + 2 * 15.0 + 4 * 0.30)
    written = Usage(cache_write_tokens=1_000_000)
    assert math.isclose(cost_usd("claude-haiku-4-5", written) or 0.0, 1.25)
    assert cost_usd("sonnet", Usage()) == 0.0
