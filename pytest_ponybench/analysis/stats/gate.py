"""The regression gate's test: `--fail-on` rules parsed into `GateRule`s, and an effect's outcome
against a rule (fail, pass, untested).

A rule fails when the effect is worse than its margin with confidence: the whole 95 % interval
lies beyond the margin on the metric's worse side, which is the verdict's own test shifted to the
margin. Each rule is tested alone, with no adjustment across rules. The words of the report are
`verdict/gate_report.py`'s.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from pytest_ponybench.analysis.stats.effects import Effect
from pytest_ponybench.analysis.stats.metrics import METRIC_ALIASES, RATE_METRICS, RATIO_METRICS, SCORE

__all__ = ["FAIL", "GateRule", "PASS", "UNTESTED", "compare_gate", "gate_outcome", "parse_gate"]

_RULE = re.compile(r"^([a-z_]+)\s*:\s*([+-]?\d+(?:\.\d+)?)\s*(pp|%)$")

FAIL = "fail"
PASS = "pass"
UNTESTED = "untested"


@dataclass(frozen=True)
class GateRule:
    text: str
    metric: str
    margin: float  # pp for rates, % change for ratios


def parse_gate(rules: str) -> list[GateRule]:
    """Parse "correct:-5pp,loc:+10%,cost:+20%". Rates take pp, ratio metrics take %; anything
    else raises ValueError naming the rule, before any effect is looked at."""
    parsed: list[GateRule] = []
    for raw in rules.split(","):
        text = raw.strip()
        if not text:
            continue
        m = _RULE.match(text.lower())
        if m is None:
            raise ValueError(f"bad gate rule {text!r}: expected metric:±N pp or metric:±N%")
        name, number, unit = m.groups()
        metric = METRIC_ALIASES.get(name, name)
        if metric in (*RATE_METRICS, SCORE):
            if unit != "pp":
                raise ValueError(f"bad gate rule {text!r}: {metric} is a rate, use pp")
        elif metric in RATIO_METRICS:
            if unit != "%":
                raise ValueError(f"bad gate rule {text!r}: {metric} is a ratio, use %")
        else:
            known = ", ".join((*RATE_METRICS, SCORE, *RATIO_METRICS, *METRIC_ALIASES))
            raise ValueError(f"bad gate rule {text!r}: unknown metric {name!r} (known: {known})")
        parsed.append(GateRule(text=text, metric=metric, margin=float(number)))
    return parsed


def gate_outcome(effect: Effect, rule: GateRule) -> str:
    """FAIL when the effect is worse than the rule's margin with confidence: its whole 95 %
    interval lies beyond the margin on the metric's worse side, which is the verdict's own test
    (the paired t-test, one-sided at 2.5 %) shifted to the margin. Each rule is tested alone, at
    that level, with no adjustment across rules. UNTESTED when there is no interval to test with:
    no paired task, one task, or a zero spread on too few tasks for the sign test (a point is not
    evidence either way). Otherwise PASS."""
    if (
        effect.n_tasks < 2
        or math.isinf(effect.low)
        or math.isinf(effect.high)
        or (effect.kind == "rate_diff" and effect.low <= -100.0 and effect.high >= 100.0)
    ):
        return UNTESTED
    beyond = effect.low > rule.margin if effect.lower_is_better else effect.high < rule.margin
    return FAIL if beyond else PASS


def compare_gate(effects: Iterable[Effect], rules: str) -> list[str]:
    """The rules that FAIL for these effects (gate_outcome); a metric with no effect, or an
    untested one, does not fail here."""
    parsed = parse_gate(rules)
    effects = list(effects)
    failed: list[str] = []
    for rule in parsed:
        if any(e.metric == rule.metric and gate_outcome(e, rule) == FAIL for e in effects):
            failed.append(rule.text)
    return failed
