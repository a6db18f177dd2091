"""Tests for `analysis/stats/distributions.py`: Wilson, t quantiles and p, the sign test, Holm.

Oracle values come from scipy 1.17.1 and statsmodels 0.15.0 (throwaway venv), computed on
2026-11-29; the call that produced each one sits next to it.
"""

from __future__ import annotations

import math
import random

import pytest

from pytest_ponybench.analysis.stats.distributions import (
    Interval,
    holm,
    newcombe,
    sign_test_one_sided,
    sign_test_p,
    t_quantile,
    t_two_sided_p,
    wilson,
    z_two_sided,
)

ABS = 1e-6


@pytest.mark.parametrize(
    ("n_ok", "n", "low", "high"),
    [
        # Issue oracles; statsmodels proportion_confint(k, n, method="wilson") agrees to 1e-8.
        (7, 10, 0.396778, 0.892209),
        (0, 5, 0.0, 0.434482),
        (10, 10, 0.722467, 1.0),
    ],
)
def test_wilson_oracle(n_ok: int, n: int, low: float, high: float) -> None:
    ci = wilson(n_ok, n)
    assert ci.low == pytest.approx(low, abs=ABS)
    assert ci.high == pytest.approx(high, abs=ABS)


def test_wilson_edges_are_exact_and_empty_is_uninformative() -> None:
    assert wilson(0, 5).low == 0.0
    assert wilson(10, 10).high == 1.0
    assert wilson(0, 0) == Interval(0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(6, 5)


@pytest.mark.parametrize(
    ("df", "expected"),
    [
        (1, 12.706204736174694),  # scipy.stats.t.ppf(0.975, 1) on 2026-11-29
        (2, 4.302652729749462),  # scipy.stats.t.ppf(0.975, 2) on 2026-11-29
        (5, 2.5705818356363146),  # scipy.stats.t.ppf(0.975, 5) on 2026-11-29
        (30, 2.0422724563012378),  # scipy.stats.t.ppf(0.975, 30) on 2026-11-29
    ],
)
def test_t_quantile_oracle(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=ABS)
    assert t_quantile(0.025, df) == pytest.approx(-expected, abs=ABS)


def test_t_quantile_edges() -> None:
    assert t_quantile(0.5, 3) == 0.0
    # scipy.stats.t.ppf(0.9999999, 1) on 2026-11-29: far tail, where CDF bisection would cancel.
    assert t_quantile(0.9999999, 1) == pytest.approx(3183098.861837451, rel=1e-9)
    for bad_p, df in [(0.0, 3), (1.0, 3), (0.5, 0)]:
        with pytest.raises(ValueError):
            t_quantile(bad_p, df)


def test_t_two_sided_p_oracle() -> None:
    # 2 * scipy.stats.t.sf(2.5, 7) on 2026-11-29
    assert t_two_sided_p(2.5, 7) == pytest.approx(0.04099221858575289, abs=ABS)
    assert t_two_sided_p(0.0, 7) == pytest.approx(1.0)
    assert t_two_sided_p(math.inf, 7) == 0.0


@pytest.mark.parametrize(
    ("wins", "losses", "expected"),
    [
        (8, 1, 0.0390625),  # scipy.stats.binomtest(8, 9, 0.5).pvalue on 2026-11-29
        (5, 5, 1.0),  # scipy.stats.binomtest(5, 10, 0.5).pvalue on 2026-11-29
        (3, 17, 0.0025768280029296875),  # scipy.stats.binomtest(3, 20, 0.5).pvalue on 2026-11-29
        (0, 5, 0.0625),  # five tasks all one way still cannot reject at 0.05
        (6, 0, 0.03125),
        (0, 0, 1.0),
    ],
)
def test_sign_test_oracle(wins: int, losses: int, expected: float) -> None:
    assert sign_test_p(wins, losses) == pytest.approx(expected, abs=ABS)


def test_sign_test_many_tasks_does_not_underflow() -> None:
    assert 0.0 < sign_test_p(900, 100) < 1e-100
    assert sign_test_p(500, 500) == pytest.approx(1.0)


def test_holm_oracle() -> None:
    # Issue oracle; statsmodels multipletests(p, method="holm")[1] agrees.
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=ABS)
    assert holm([]) == []


def test_holm_is_monotone_and_never_below_raw() -> None:
    rng = random.Random(7)
    for _ in range(200):
        ps = [rng.random() ** 3 for _ in range(rng.randint(1, 12))]
        adj = holm(ps)
        assert all(p <= a <= 1.0 for p, a in zip(ps, adj, strict=True))
        ranked = [a for _, a in sorted(zip(ps, adj, strict=True))]
        assert ranked == sorted(ranked)


@pytest.mark.parametrize(
    ("k1", "n1", "k2", "n2", "low", "high"),
    [
        # Newcombe (1998), "Interval estimation for the difference between independent
        # proportions", Table II, method 10 (the hybrid score interval), examples a, f and h.
        (56, 70, 48, 80, 0.0524, 0.3339),
        (0, 10, 0, 10, -0.2775, 0.2775),
        (10, 10, 0, 10, 0.6075, 1.0),
        (5, 56, 0, 29, -0.0381, 0.1926),  # example d
    ],
)
def test_newcombe_oracle(k1: int, n1: int, k2: int, n2: int, low: float, high: float) -> None:
    ci = newcombe(k1, n1, k2, n2)
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-4)


def test_newcombe_without_cells_is_the_whole_range_and_wilson_takes_fractions() -> None:
    assert newcombe(0, 0, 3, 5) == Interval(-1.0, 1.0)
    # A sum of scores is a fractional count: 2.5 of 5 sits where 1 of 2 would, at n = 5.
    half = wilson(2.5, 5)
    assert half.low == pytest.approx(1 - half.high)
    assert wilson(0.0, 4.5).low == 0.0


def test_the_one_sided_sign_test_and_the_two_sided_z() -> None:
    assert sign_test_one_sided(10, 0) == pytest.approx(1 / 2**10)
    assert sign_test_one_sided(0, 10) == 1.0
    assert sign_test_one_sided(0, 0) == 1.0
    # Twice the smaller tail is the two-sided p.
    assert 2 * sign_test_one_sided(6, 2) == pytest.approx(sign_test_p(6, 2))
    assert z_two_sided(0.95) == pytest.approx(1.959964, abs=1e-6)
    with pytest.raises(ValueError):
        z_two_sided(1.0)
