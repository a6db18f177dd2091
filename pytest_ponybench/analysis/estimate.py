"""The price before paying: what a grid will cost, from measured token counts and list prices.

A cell's tokens come from the best evidence at hand, per (task, arm):

- earlier runs in the output folder whose records are of the same task and arm (same content
  hashes) and the same model: what that model really did, with its spread;
- else one session of the offline reference agent through the real CLI, confined as a cell is
  (`measure`): the system prompt, the tools, the arm's hook output and skills, the task's prompt
  and a single pass that writes the reference, as the CLI counts and sends them. A live model
  reads, thinks and retries more than one pass: the range goes from that single pass (low) to
  LIVE_FACTOR times it (high).

Dollars are the tokens times the model's list price per million tokens, prompt-cache writes
and reads included. Offline models cost what the gateway metered for them (notional: the
offline server's token counts at the default model's list price), so an offline run checks the
arithmetic.
Measurements are cached in the output folder by task, arm and CLI version.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, astuple, dataclass
from typing import Any

from pytest_ponybench.core.prices import PRICES, list_price
from pytest_ponybench.core.records import Record, is_valid, number

__all__ = [
    "LIVE_FACTOR",
    "Line",
    "PRICES",
    "Profile",
    "TOKEN_KEYS",
    "cache_key",
    "estimate",
    "from_records",
    "list_price",
    "measure",
    "render",
    "totals",
]

LIVE_FACTOR = 5.0
TOKEN_KEYS = ("input_tokens", "output_tokens", "cache_write_tokens", "cache_read_tokens")


@dataclass(frozen=True)
class Profile:
    """Tokens of one session, and the dollars the CLI reported for it."""

    input_tokens: float
    output_tokens: float
    cache_write_tokens: float
    cache_read_tokens: float
    cost_usd: float
    # The judge's own tokens for the cell (its graders' calls; 0 for a task without a judge).
    judge_input_tokens: float = 0.0
    judge_output_tokens: float = 0.0

    def dollars(self, price: tuple[float, float, float, float]) -> float:
        tokens = (self.input_tokens, self.output_tokens, self.cache_write_tokens, self.cache_read_tokens)
        return sum(t * p for t, p in zip(tokens, price, strict=True)) / 1e6

    def judge_dollars(self, price: tuple[float, float, float, float]) -> float:
        """The judge's calls at its model's price (one turn each: nothing cached)."""
        return (self.judge_input_tokens * price[0] + self.judge_output_tokens * price[1]) / 1e6

    def plus(self, other: Profile, minus: Profile) -> Profile:
        """This profile with other's difference from minus added (an arm's overhead on a task
        measured with the baseline), never below zero."""
        vals = [
            max(0.0, a + b - c) for a, b, c in zip(astuple(self), astuple(other), astuple(minus), strict=True)
        ]
        return Profile(*vals)

    @property
    def tokens(self) -> float:
        return self.input_tokens + self.output_tokens + self.cache_write_tokens + self.cache_read_tokens

    @classmethod
    def of(cls, rec: Record) -> Profile | None:
        values = [
            number(rec.get(k)) for k in (*TOKEN_KEYS, "cost_usd", "judge_input_tokens", "judge_output_tokens")
        ]
        if any(v is None for v in values[:4]):
            return None
        return cls(*(v or 0.0 for v in values))


@dataclass(frozen=True)
class Line:
    """The estimate for one model: cells, and dollars low, expected, high."""

    model: str
    cells: int
    tokens_per_cell: float
    low: float
    high: float
    source: str  # "earlier runs", "offline measurement", "no list price"
    priced: bool = True


def from_records(records: Iterable[Record], task_hash: str, arm_hash: str, model: str) -> list[Profile]:
    """Profiles of the valid earlier cells of this exact task, arm and model."""
    out = []
    for rec in records:
        if (rec.get("task_hash"), rec.get("arm_hash"), rec.get("model")) != (task_hash, arm_hash, model):
            continue
        if is_valid(rec) and (p := Profile.of(rec)) is not None:
            out.append(p)
    return out


def estimate(
    cells: Sequence[tuple[str, str, str]],
    measured: Mapping[tuple[str, str], Profile],
    earlier: Mapping[tuple[str, str, str], list[Profile]],
    offline: Callable[[str], bool],
    judge: str | None = None,
    judged: frozenset[str] = frozenset(),
) -> list[Line]:
    """Per model: the cells (task, arm, model) of the grid priced from earlier records of that
    model where there are any, else from the offline measurement of (task, arm); and, for a
    live judge, the judge's calls on the cells of the judged tasks as one line more."""
    lines = _agent_lines(cells, measured, earlier, offline)
    if judge is not None and not offline(judge):
        lines.append(_judge_line(judge, [c for c in cells if c[0] in judged], measured, earlier))
    return lines


JUDGE_FACTOR = 2.0  # high end of a judge call: a longer answer, a retry


def _judge_line(
    judge: str,
    cells: Sequence[tuple[str, str, str]],
    measured: Mapping[tuple[str, str], Profile],
    earlier: Mapping[tuple[str, str, str], list[Profile]],
) -> Line:
    price = list_price(judge)
    low = tokens = 0.0
    for task, arm, model in cells:
        seen = [p for p in earlier.get((task, arm, model), []) if p.judge_input_tokens]
        base = seen[0] if seen else measured.get((task, arm))
        if base is None:
            continue
        tokens += base.judge_input_tokens + base.judge_output_tokens
        low += base.judge_dollars(price) if price else 0.0
    n = max(1, len(cells))
    return Line(
        f"{judge} (judge)",
        len(cells),
        tokens / n,
        low,
        low * JUDGE_FACTOR,
        "offline measurement",
        bool(price),
    )


def _agent_lines(
    cells: Sequence[tuple[str, str, str]],
    measured: Mapping[tuple[str, str], Profile],
    earlier: Mapping[tuple[str, str, str], list[Profile]],
    offline: Callable[[str], bool],
) -> list[Line]:
    by_model: dict[str, list[tuple[str, str]]] = {}
    for task, arm, model in cells:
        by_model.setdefault(model, []).append((task, arm))
    lines = []
    for model, pairs in by_model.items():
        price = list_price(model)
        low = high = tokens = 0.0
        sources = set()
        for task, arm in pairs:
            seen = earlier.get((task, arm, model), [])
            base = measured.get((task, arm))
            if seen:
                costs = sorted(p.cost_usd for p in seen)
                low += costs[0] if len(costs) < 5 else statistics.quantiles(costs, n=10)[0]
                high += costs[-1] if len(costs) < 5 else statistics.quantiles(costs, n=10)[-1]
                tokens += statistics.fmean(p.tokens for p in seen)
                sources.add("earlier runs")
            elif base is not None:
                one = base.cost_usd if offline(model) else base.dollars(price) if price else 0.0
                low += one
                high += one if offline(model) else one * LIVE_FACTOR
                tokens += base.tokens
                sources.add("offline measurement")
        priced = price is not None or offline(model) or sources == {"earlier runs"}
        lines.append(
            Line(
                model, len(pairs), tokens / len(pairs), low, high, " + ".join(sorted(sources)) or "-", priced
            )
        )
    return lines


def render(lines: Sequence[Line], budget: float | None = None) -> list[str]:
    out = ["  model" + " " * 14 + "cells  tokens/cell   $/cell (low-high)    total (low-high)  from"]
    total_low = total_high = 0.0
    for ln in lines:
        if not ln.priced:
            head = f"  {ln.model:<19} {ln.cells:>5}  {ln.tokens_per_cell:>11,.0f}"
            out.append(f"{head}   no list price known for this model")
            continue
        per = f"${ln.low / ln.cells:.3f}-${ln.high / ln.cells:.3f}"
        total = f"${ln.low:,.2f}-${ln.high:,.2f}"
        head = f"  {ln.model:<19} {ln.cells:>5}  {ln.tokens_per_cell:>11,.0f}"
        out.append(f"{head}   {per:<20} {total:<17} {ln.source}")
        total_low += ln.low
        total_high += ln.high
    out.append(
        f"  whole run: ${total_low:,.2f}-${total_high:,.2f}" + (f" (budget ${budget:g})" if budget else "")
    )
    return out


def totals(lines: Sequence[Line]) -> tuple[float, float]:
    return sum(ln.low for ln in lines if ln.priced), sum(ln.high for ln in lines if ln.priced)


# -- the measurement cache ----------------------------------------------------------------------


def cache_key(task_hash: str, arm_hash: str, claude_version: str | None) -> str:
    """The cache's key; `v2` since a profile carries the judge's tokens."""
    return f"v2:{task_hash}:{arm_hash}:{claude_version or '?'}"


def measure(
    jobs: Sequence[tuple[str, Callable[[], Mapping[str, Any]]]],
    cache: dict[str, dict[str, float]],
    workers: int,
) -> dict[str, Profile]:
    """Run each job (key, a function running one offline session and returning its record)
    whose key is not cached, a few at a time; every profile by key."""
    todo = [(key, run) for key, run in jobs if key not in cache]
    if todo:
        with ThreadPoolExecutor(max(1, workers)) as pool:
            for key, rec in zip((k for k, _ in todo), pool.map(lambda job: job[1](), todo), strict=True):
                profile = Profile.of(rec) if is_valid(rec) else None
                if profile is not None:
                    cache[key] = asdict(profile)
    out = {}
    for key, _ in jobs:
        if key in cache:
            try:
                out[key] = Profile(**cache[key])
            except TypeError:
                continue
    return out
