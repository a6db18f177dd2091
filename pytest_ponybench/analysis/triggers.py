"""Trigger accuracy per arm: did its skills or hooks fire where a task says they should, and only
there?

A task declares `expect_fire` (true, false, or per arm kind and name); each cell of an arm
records its expectation (`expect_fire`), what the session invoked of what the arm's plugins
registered (`skills_used`, `skills_available`) and which of its hooks acted (`hooks_fired`: gave
the model context or a decision); a cell fired when either did (`core.skills.fired`). Fired
where expected is the share of cells expected to fire that did; fired where not expected (a
false trigger: a skill or hook too eager for tasks it has nothing to do with) the share of cells
expected not to fire that did. Both with Wilson intervals over cells, and both gateable
(`--fail-on missed_fire:20%,false_fire:10%`: the run fails when the rate is above the margin
with confidence, its whole interval beyond it).

Pure functions: records in, figures out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from pytest_ponybench.analysis.stats import Interval, wilson
from pytest_ponybench.core.records import Record, flag, is_valid, latest
from pytest_ponybench.core.skills import fired as fired_of

__all__ = ["GATE_METRICS", "Triggers", "describe", "gate_fails", "per_arm"]

# Gate metrics over trigger accuracy: the share of cells that missed / wrongly fired, in %.
GATE_METRICS = ("missed_fire", "false_fire")


@dataclass(frozen=True)
class Triggers:
    """One arm on one model: its cells with an expectation, and what they did."""

    model: str
    arm: str
    expected: int  # valid cells expected to fire
    fired_expected: int
    unexpected: int  # valid cells expected not to fire
    fired_unexpected: int

    @property
    def hit(self) -> Interval:
        return wilson(self.fired_expected, self.expected)

    @property
    def false(self) -> Interval:
        return wilson(self.fired_unexpected, self.unexpected)

    def rate_interval(self, metric: str) -> tuple[int, int, Interval]:
        """(bad cells, cells, Wilson interval of the bad share) for a gate metric."""
        if metric == "missed_fire":
            missed = self.expected - self.fired_expected
            return missed, self.expected, wilson(missed, self.expected)
        return self.fired_unexpected, self.unexpected, self.false


def per_arm(records: Iterable[Record]) -> list[Triggers]:
    """Every (model, arm) with a cell that has an expectation and an arm with something to fire
    (a skill, agent or command its plugins registered, or a hook), sorted; the latest attempt of
    each cell, valid cells only."""
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for rec in latest(records):
        expect = flag(rec.get("expect_fire"))
        fired = fired_of(rec)
        if expect is None or fired is None or not is_valid(rec):
            continue
        t = tally[(str(rec.get("model")), str(rec.get("arm")))]
        if expect:
            t[0] += 1
            t[1] += fired
        else:
            t[2] += 1
            t[3] += fired
    return [Triggers(m, a, *counts) for (m, a), counts in sorted(tally.items())]


def _share(k: int, n: int, ci: Interval) -> str:
    if n == 0:
        return "no cell"
    return f"{k}/{n} ({100 * k / n:.0f}%, Wilson {100 * ci.low:.0f}-{100 * ci.high:.0f}%)"


def describe(t: Triggers) -> str:
    """ "trigger accuracy of careful (sonnet): fired where expected 5/6 (83%, Wilson 44-97%),
    fired where not expected 1/4 (25%, Wilson 5-70%)" ."""
    return (
        f"trigger accuracy of {t.arm} ({t.model}): fired where expected "
        f"{_share(t.fired_expected, t.expected, t.hit)}, fired where not expected "
        f"{_share(t.fired_unexpected, t.unexpected, t.false)}"
    )


def gate_fails(triggers: Iterable[Triggers], metric: str, margin_pct: float) -> list[str]:
    """Each arm whose missed or false fire rate is above the margin with confidence (the whole
    Wilson interval above it), in words; [] when none is."""
    out = []
    for t in triggers:
        bad, n, ci = t.rate_interval(metric)
        if n and ci.low * 100 > margin_pct:
            what = "missed firing" if metric == "missed_fire" else "fired where not expected"
            out.append(
                f"{metric}:{margin_pct:g}%: {t.arm} ({t.model}) {what} in {bad}/{n} cells "
                f"(Wilson {100 * ci.low:.0f}-{100 * ci.high:.0f}%), the whole interval above {margin_pct:g}%"
            )
    return out
