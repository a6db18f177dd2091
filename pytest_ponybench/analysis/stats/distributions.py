"""The distributions every test here stands on: Wilson's interval, Newcombe's interval for a
difference of two rates, the incomplete beta, Student t's quantiles and p-values, the standard
normal, the exact sign test, Holm's procedure.

Standard library only, and no knowledge of records, metrics or arms: a function here takes
numbers and gives numbers, so it can be checked against published oracles on its own
(tests/unit/analysis/stats/test_distributions.py). `bisect` is the one root finder of the wing
(the t and z quantiles here, the sequential boundaries and the noise floor use it).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pytest_ponybench.analysis import procedure

__all__ = [
    "ALPHA",
    "Interval",
    "MIN_SIGN_TASKS",
    "Z_975",
    "betainc",
    "bisect",
    "holm",
    "newcombe",
    "normal_cdf",
    "normal_upper",
    "normal_upper_quantile",
    "sign_tasks",
    "sign_test_one_sided",
    "sign_test_p",
    "t_quantile",
    "t_two_sided_p",
    "wilson",
    "z_two_sided",
]

ALPHA = procedure.ALPHA
Z_975 = 1.959964  # standard normal 0.975 quantile, the two-sided 95 % z
# The exact two-sided sign test cannot reach p < 0.05 with fewer than 6 tasks (2 / 2**5 > 0.05);
# below that a zero-spread interval stays unbounded.
MIN_SIGN_TASKS = 6


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def bisect(
    below: Callable[[float], bool],
    lo: float,
    hi: float,
    *,
    steps: int = 200,
    close: Callable[[float, float], bool] | None = None,
) -> tuple[float, float]:
    """[lo, hi] halved around the point where `below(x)` turns from true to false, `steps`
    times or until `close(lo, hi)`; the caller takes the midpoint or a side of what is left."""
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        if below(mid):
            lo = mid
        else:
            hi = mid
        if close is not None and close(lo, hi):
            break
    return lo, hi


def wilson(successes: float, n: float, z: float = Z_975) -> Interval:
    """Wilson score interval for a rate; unlike the Wald interval it stays inside [0, 1] and
    does not collapse to a point at 0/n or n/n, which small benchmark samples hit all the time.
    `successes` and `n` may be fractional (a sum of scores in [0, 1]; an effective number of
    cells)."""
    if n <= 0:
        return Interval(0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} outside 0..{n}")
    phat = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (phat + z2 / (2 * n)) / denom
    half = z * math.sqrt(phat * (1 - phat) / n + z2 / (4 * n * n)) / denom
    # Exact 0 and 1 at the edges rather than 1e-17 rounding residue.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(low, high)


def newcombe(k1: float, n1: int, k2: float, n2: int, z: float = Z_975) -> Interval:
    """Newcombe's hybrid score interval (his method 10, 1998) for the difference of two
    independent rates k1/n1 - k2/n2, from each rate's Wilson interval: it stays inside [-1, 1]
    and is no point at 0/n against 0/n (0/10 against 0/10: -0.2775 to 0.2775). Either side
    without a cell gives the whole range."""
    if n1 <= 0 or n2 <= 0:
        return Interval(-1.0, 1.0)
    p1, p2 = k1 / n1, k2 / n2
    a, b = wilson(k1, n1, z), wilson(k2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - a.low) ** 2 + (b.high - p2) ** 2)
    high = d + math.sqrt((a.high - p1) ** 2 + (p2 - b.low) ** 2)
    return Interval(max(-1.0, low), min(1.0, high))


def z_two_sided(confidence: float) -> float:
    """The standard normal quantile of a two-sided interval at `confidence` (1.96 at 95 %)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    return normal_upper_quantile((1.0 - confidence) / 2.0)


def _betacf(a: float, b: float, x: float) -> float:
    # Continued fraction for the incomplete beta (modified Lentz); converges fast for
    # x < (a + 1) / (a + b + 2), which the caller guarantees via the symmetry relation.
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student t with df degrees of freedom; 1.0 for a t that is not a
    number (0 / 0: no evidence)."""
    if math.isnan(t):
        return 1.0
    if math.isinf(t):
        return 0.0
    return min(1.0, betainc(df / 2.0, 0.5, df / (df + t * t)))


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: int) -> float:
    """Student t quantile by bisection on the upper tail.

    Bisecting on the tail 0.5 * I_x(df/2, 1/2) rather than on the CDF keeps full relative
    precision for p close to 1, where 1 - CDF would cancel.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if df < 1:
        raise ValueError(f"df must be >= 1, got {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    tail = 1.0 - p

    def upper_tail(t: float) -> float:
        return 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))

    lo, hi = 0.0, 1.0
    while upper_tail(hi) > tail:
        lo, hi = hi, hi * 2.0
    lo, hi = bisect(lambda t: upper_tail(t) > tail, lo, hi, close=lambda lo, hi: hi - lo <= 1e-13 * hi)
    return 0.5 * (lo + hi)


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def normal_upper(x: float) -> float:
    """P(Z >= x): the upper tail, exact where 1 - normal_cdf(x) would round to 0."""
    return 0.5 * math.erfc(x / math.sqrt(2.0))


@functools.lru_cache(maxsize=4096)
def normal_upper_quantile(p_upper: float) -> float:
    """The standard normal quantile with upper tail p_upper (cached: every look of a sequential
    run asks for the same few levels, each effect for its own)."""
    lo, hi = bisect(lambda z: normal_upper(z) > p_upper, -40.0, 40.0)
    return 0.5 * (lo + hi)


def sign_test_p(wins: int, losses: int) -> float:
    """Exact two-sided binomial(0.5) test on the discordant tasks (McNemar's exact test when
    every task has one run). Ties carry no information about direction and are not counted."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    # Integer arithmetic so hundreds of tasks do not underflow 0.5**n term by term.
    tail = sum(math.comb(n, i) for i in range(k + 1))
    return min(1.0, 2 * tail / (1 << n))


def sign_test_one_sided(wins: int, losses: int) -> float:
    """Exact one-sided binomial(0.5) p for at least `wins` of the discordant tasks going the
    tested way; 1.0 without a discordant task."""
    n = wins + losses
    if n == 0:
        return 1.0
    return min(1.0, sum(math.comb(n, i) for i in range(wins, n + 1)) / (1 << n))


def sign_tasks(alpha: float = ALPHA) -> int:
    """The fewest tasks, all moving one way, with which the exact sign test reaches alpha."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    n = 1
    while 2.0 / 2**n >= alpha:
        n += 1
    return n


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the input order; controls the family-wise error
    without assuming the arms' and metrics' tests are independent (they share tasks)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted
