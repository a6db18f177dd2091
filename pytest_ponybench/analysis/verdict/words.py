"""One effect in numbers and words: the estimate, the interval and p as the tables show them,
the verdict's word, and why an undecided effect is undecided (what would settle it).

Shared by the text and Markdown blocks (`render.py`) and the gate's report (`gate_report.py`),
so a metric reads the same wherever it is shown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pytest_ponybench.analysis import stats
from pytest_ponybench.analysis.stats import ArmVerdict, Effect

__all__ = [
    "METRIC_NAMES",
    "decided_sentence",
    "fmt_estimate",
    "fmt_interval",
    "fmt_level",
    "fmt_p",
    "is_decided",
    "metric_list",
    "title",
    "undecided_clauses",
    "unit",
    "why_undecided",
    "word",
]

# Display names: the short names gate rules take (stats.METRIC_ALIASES), so what the table shows
# is what a user types after --fail-on.
METRIC_NAMES = {
    "pass": "pass",
    "correct": "correct",
    "safe": "safe",
    "score": "score",
    "total_loc": "loc",
    "cost_usd": "cost",
    "tokens": "tokens",
    "duration_ms": "time",
}


def _signed(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{round(x, 1) + 0.0:+.1f}"  # + 0.0: never print "-0.0"


def unit(e: Effect) -> str:
    return " pp" if e.kind == "rate_diff" else "%"


def fmt_estimate(e: Effect) -> str:
    return "-" if e.n_tasks == 0 else f"{_signed(e.estimate)}{unit(e)}"


def fmt_interval(e: Effect) -> str:
    if e.n_tasks == 0:
        return "-"
    if e.kind == "rate_diff":
        return f"[{_signed(e.low)}, {_signed(e.high)}] pp"
    return f"[{_signed(e.low)}%, {_signed(e.high)}%]"


def fmt_p(e: Effect) -> str:
    if e.n_tasks == 0 or not e.tested:
        return "-"
    p = e.p if e.p_adj is None else e.p_adj
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def fmt_level(level: float) -> str:
    return f"{level:.2g}"


def word(e: Effect) -> str:
    if e.n_tasks == 0:
        return "no data"
    if e.tested:
        return e.verdict
    return "not tested" if e.untested else "in pass"


def title(row: ArmVerdict) -> str:
    return f"{row['arm']} vs {row['baseline']} ({row['model']})"


def metric_list(effects: Sequence[Effect]) -> str:
    return ", ".join(METRIC_NAMES.get(e.metric, e.metric) for e in effects)


def _resolve_phrase(e: Effect) -> str:
    return "a 10-point difference" if e.kind == "rate_diff" else "a 10% change"


def why_undecided(e: Effect) -> str:
    """What it would take to decide an undecided effect, in words. The hint is the verdict's own
    test: the paired t-test's power at the metric's level in the family's procedure (its first
    step: alpha times its weight, the level the block's procedure line names)."""
    if e.n_tasks == 0:
        return "no paired task measured it"
    if e.untested:
        return e.untested
    if not e.tested:
        return "the breakdown of pass (which axis moved), not tested on its own"
    if e.vetoed:
        return "the bound on the invalid cells, not the data, leaves it undecided (rerun them: below)"
    if e.tied:
        return _tie(e)
    if stats.is_negligible(e.low, e.high) and e.n_tasks > 1 and not (e.zero_spread and e.kind == "rate_diff"):
        span = " point" if e.kind == "rate_diff" else "%"
        return f"negligible: the whole interval is within ±{stats.NEGLIGIBLE:g}{span} of no change"
    if e.n_tasks == 1:
        return "only 1 paired task: no spread to test against; a verdict needs more tasks"
    if e.zero_spread and e.needed_tasks is not None and e.n_tasks < e.needed_tasks:
        return (
            f"every task moved by the same amount, so the sign test decides: it needs at least "
            f"{e.needed_tasks} tasks all one way at its level p < {fmt_level(e.level)}"
        )
    # An interval that excludes 0 next to "undecided": the test passed at 5 % but not at the
    # metric's level in the family; say so rather than look like a contradiction.
    test = (
        f"the 95% interval excludes 0, but a verdict needs the family's level (p {fmt_p(e)} adjusted)"
        if e.low > 0.0 or e.high < 0.0
        else ""
    )
    runs = f"{e.spread.runs:.3g}" if e.spread is not None else "?"
    if e.needed_tasks is None or e.needed_tasks > e.n_tasks:
        if e.needed_tasks is None:
            need = f"needs more than {stats.MAX_HINT_TASKS} tasks at {runs} runs"
        else:
            more = e.needed_tasks - e.n_tasks
            need = f"needs about {more} more tasks ({e.needed_tasks} in all at {runs} runs)"
        need += f" for 80% power on {_resolve_phrase(e)} at its level p < {fmt_level(e.level)}"
        if e.needed_runs is not None:
            need += f", or {e.needed_runs} runs on each of these {e.n_tasks} tasks"
        return f"{need}; {test}" if test else need
    if e.kind == "rate_diff" and -10.0 < e.low and e.high < 10.0:
        return "the interval rules out a 10-point difference"
    if (
        e.kind == "ratio"
        and -100.0 * stats.RATIO_RESOLVE / (1 + stats.RATIO_RESOLVE) < e.low
        and e.high < 100.0 * stats.RATIO_RESOLVE
    ):
        return "the interval rules out a 10% change"
    if test:
        return test
    return f"the interval still holds no change with {e.n_tasks} tasks"


def _tie(e: Effect) -> str:
    """Why a tie on every task is no verdict: a floor, a ceiling, or tasks that tell the arms
    apart nowhere; the interval is the cells' binomial noise (Newcombe's)."""
    cells = e.cells
    noise = "the interval is the cells' binomial noise"
    if cells is not None and cells[0] == 0 and cells[2] == 0:
        return (
            f'every cell scored 0 on both arms: a floor, not "no effect" (the tasks are too hard to '
            f"tell the arms apart); {noise}"
        )
    if cells is not None and cells[0] == cells[1] and cells[2] == cells[3]:
        return (
            f'every cell passed on both arms: a ceiling, not "no effect" (the tasks are too easy to '
            f"tell the arms apart); {noise}"
        )
    return f'every task scored the same on both arms: a tie on every task, not "no effect"; {noise}'


def is_decided(e: Effect) -> bool:
    return e.n_tasks > 0 and e.tested and e.verdict != stats.UNDECIDED


def decided_sentence(effects: Sequence[Effect]) -> str:
    """ "Decided: pass better (+25.0 pp), cost worse (+42.4%)." for one arm's effects; with
    nothing decided, why in one line: the primary's reason."""
    decided = [
        f"{METRIC_NAMES.get(e.metric, e.metric)} {e.verdict} ({fmt_estimate(e)})"
        for e in effects
        if is_decided(e)
    ]
    if decided:
        return "Decided: " + ", ".join(decided) + "."
    primary = next((e for e in effects if e.primary), None)
    if primary is None:
        return "Decided: nothing yet."
    name = METRIC_NAMES.get(primary.metric, primary.metric)
    return f"Decided: nothing; {name}, the primary: {why_undecided(primary)}."


def undecided_clauses(effects: Sequence[Effect]) -> list[str]:
    """One clause per reason, metrics that share it together: "loc, cost: the interval rules
    out a 10% change"."""
    reasons: dict[str, list[str]] = {}
    for e in effects:
        if not is_decided(e):
            reasons.setdefault(why_undecided(e), []).append(METRIC_NAMES.get(e.metric, e.metric))
    return [f"{', '.join(names)}: {reason}" for reason, names in reasons.items()]
