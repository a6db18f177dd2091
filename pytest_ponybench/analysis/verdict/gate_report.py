"""The regression gate's report: every (rule, arm) with its outcome (failed, passed, untested)
and the words that say why. The test itself is `stats/gate.py`'s: the verdict's interval
against the rule's margin, each rule alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_ponybench.analysis import stats
from pytest_ponybench.analysis.stats import ArmVerdict, Effect
from pytest_ponybench.analysis.verdict.words import METRIC_NAMES, fmt_estimate, fmt_interval, title, unit

__all__ = ["GateFailure", "GateOutcome", "check_gate", "gate_report"]


@dataclass(frozen=True)
class GateOutcome:
    """One rule for one arm: failed, passed or untested (stats.gate_outcome)."""

    rule: str
    row: ArmVerdict
    effect: Effect | None
    status: str

    def describe(self) -> str:
        e = self.effect
        if e is None or e.n_tasks == 0:
            return f"{self.rule}: {title(self.row)}: no paired task measured it"
        rule = stats.parse_gate(self.rule)[0]
        margin = f"{rule.margin:+g}{unit(e)}"
        shown = f"{METRIC_NAMES.get(e.metric, e.metric)} {fmt_estimate(e)} {fmt_interval(e)}"
        head = f"{self.rule}: {title(self.row)}: {shown}"
        if self.status == stats.FAIL:
            side = "above" if e.lower_is_better else "below"
            return f"{head}, the whole interval is {side} {margin}"
        if self.status == stats.UNTESTED:
            if e.zero_spread:
                return (
                    f"{head}: every one of {e.n_tasks} tasks moved by the same amount, too few for "
                    f"the sign test ({stats.MIN_SIGN_TASKS}); no interval to test {margin} with"
                )
            return f"{head}: {e.n_tasks} paired task(s), no interval to test {margin} with"
        return f"{head}, not wholly beyond {margin}"


# Kept under its old name: the failures are what most callers want.
GateFailure = GateOutcome


def gate_report(rows: Sequence[ArmVerdict], rules: str) -> list[GateOutcome]:
    """Every (rule, arm) with its outcome, in rule order. Each rule is tested alone: the
    verdict's test against the rule's margin at 2.5 % one-sided, no adjustment across rules.
    Raises ValueError naming a malformed rule (stats.parse_gate)."""
    outcomes: list[GateOutcome] = []
    for rule in stats.parse_gate(rules):
        for row in rows:
            effect = next((e for e in row["effects"] if e.metric == rule.metric), None)
            status = stats.UNTESTED if effect is None else stats.gate_outcome(effect, rule)
            outcomes.append(GateOutcome(rule=rule.text, row=row, effect=effect, status=status))
    return outcomes


def check_gate(rows: Sequence[ArmVerdict], rules: str) -> list[GateOutcome]:
    """Every (rule, arm) where the arm is worse than the rule's margin with confidence, in rule
    order. Raises ValueError naming a malformed rule (stats.parse_gate)."""
    return [o for o in gate_report(rows, rules) if o.status == stats.FAIL]
