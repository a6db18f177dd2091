"""The noise floor: the smallest change a run could decide, from its own variance. Pure functions.

A verdict of "undecided" means little without the size of change the run could have seen. The
floor is that size: the smallest true change in the pass rate (points) and in cost (%) that the
verdict's own test, the paired t-test over the run's tasks at the level the family gives the
metric, decides with 80 % power. It comes from three places, each said as such:

- a comparison's own paired spread (the per-task differences of an arm and the baseline): what
  this comparison could decide;
- the baseline's run-to-run noise: two arms that differ in nothing would differ per task by the
  noise of both, 2 s^2 / r (s^2 the variance between a task's runs, r its runs); the floor of an
  A/A at this grid, from the baseline alone (it needs 2 runs per task, and it leaves out how
  differently tasks would respond to an arm, so it is the floor's lower end);
- an A/A twin (an arm whose content hash is the baseline's, `--arm twin=baseline`): its
  verdict against the baseline is the floor measured, not computed: its interval is the change
  the run reports when nothing changed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pytest_ponybench.analysis import procedure, stats
from pytest_ponybench.analysis.stats import ArmVerdict, Effect
from pytest_ponybench.analysis.stats.distributions import bisect
from pytest_ponybench.core.records import Record, is_scored, is_valid, latest

__all__ = [
    "FLOOR_METRICS",
    "Floor",
    "POWER",
    "describe",
    "detectable",
    "effect_floor",
    "floor_text",
    "floors",
    "run_to_run_sd",
    "shown",
]

POWER = stats.POWER
FLOOR_METRICS = ("pass", "cost_usd")
# A floor past these is no floor a reader can use: a rate difference cannot pass 100 points,
# and a ratio floor of a 10-fold change (+900 %) says the spread swamps any change there is.
RATE_CAP = 100.0
RATIO_CAP = 900.0


def floor_text(name: str, kind: str, value: float) -> str:
    """A floor as a reader takes it: "pass ±26 pp", "cost ±8%", and past the caps "pass: none
    under 100 pp" / "cost: none under a 10-fold change" rather than an astronomical figure."""
    unit = " pp" if kind == "rate_diff" else "%"
    if kind == "rate_diff" and value >= RATE_CAP:
        return f"{name}: none under {RATE_CAP:.0f} pp"
    if kind != "rate_diff" and (value >= RATIO_CAP or not math.isfinite(value)):
        return f"{name}: none under a 10-fold change"
    if value < 0.5:
        return f"{name} under ±1{unit}"  # rounded, ±0 would read as "any change at all"
    return f"{name} ±{value:.0f}{unit}"


def detectable(n_tasks: int, sd: float, level: float, power: float = POWER) -> float | None:
    """The smallest true mean difference (in the test's own units: a rate difference, or a log
    ratio) that the two-sided paired t-test at `level` detects with `power`, given n tasks and
    the per-task difference sd. 0.0 when there is no spread and the sign test can decide at
    that level; None below 2 tasks, for a spread that is not a finite number, or with no spread
    on too few tasks for the sign test."""
    if n_tasks < 2 or not math.isfinite(sd) or sd < 0 or not 0 < level < 1:
        return None
    if sd == 0.0:
        return 0.0 if n_tasks >= stats.sign_tasks(level) else None
    low, high = 0.0, sd
    while stats.t_power(n_tasks, high, sd, level) < power:
        low, high = high, 2.0 * high
        if high > 1e6 * sd:
            return None
    _low, high = bisect(
        lambda d: stats.t_power(n_tasks, d, sd, level) < power,
        low,
        high,
        steps=100,
        close=lambda lo, hi: hi - lo <= 1e-9 * hi,
    )
    return high


def shown(kind: str, delta: float) -> float:
    """A difference in the test's units as the table shows it: points for a rate, % for a ratio
    (the increase side: a log ratio d is a change of exp(d) - 1)."""
    if kind == "rate_diff":
        return 100.0 * delta
    return math.inf if delta >= 700 else 100.0 * math.expm1(delta)


def effect_floor(e: Effect) -> float | None:
    """The smallest change this comparison could decide for this metric with 80 % power at the
    effect's level, from its own paired spread; None where there is no spread to go by."""
    if e.spread is None or e.n_tasks < 2:
        return None
    delta = detectable(e.n_tasks, e.spread.sd, e.level)
    return None if delta is None else shown(e.kind, delta)


def run_to_run_sd(
    values_by_task: Mapping[str, Sequence[float]], log: bool = False
) -> tuple[float, float] | None:
    """The sd of an A/A's per-task difference implied by one arm's run-to-run noise, and the
    mean runs per task: sqrt(2 * mean s_t^2 / r). None unless every task has 2 runs or more (on
    the log scale: positive values)."""
    variances: list[float] = []
    runs: list[int] = []
    for vals in values_by_task.values():
        xs = [math.log(v) for v in vals if v > 0] if log else list(vals)
        if len(xs) < 2:
            return None
        m = sum(xs) / len(xs)
        variances.append(sum((x - m) * (x - m) for x in xs) / (len(xs) - 1))
        runs.append(len(xs))
    if not variances:
        return None
    r = sum(runs) / len(runs)
    var = sum(v / r for v in variances) / len(variances)
    return math.sqrt(2.0 * var), r


@dataclass(frozen=True)
class Floor:
    """One source of a model's noise floor: pass in points, cost in %, each at its level."""

    model: str
    source: str  # words: "mine vs baseline", "the baseline's run-to-run noise", ...
    tasks: int
    runs: float
    pass_pp: float | None
    cost_pct: float | None
    pass_level: float
    cost_level: float


def _levels(row: ArmVerdict | None, primary: str) -> tuple[float, float]:
    """pass's and cost's first-step levels: from a verdict row of the run where there is one,
    else those of a lone comparison with pass and cost both tested."""
    if row is not None:
        found = {e.metric: e.level for e in row["effects"] if e.tested and e.n_tasks > 0}
        if "pass" in found and "cost_usd" in found:
            return found["pass"], found["cost_usd"]
    tested = stats.tested_metrics(primary, False)
    weights = procedure.block_weights(tested, primary)
    return procedure.ALPHA * weights["pass"], procedure.ALPHA * weights["cost_usd"]


def _baseline_values(
    records: Iterable[Record], baseline: str
) -> dict[str, dict[str, dict[str, list[float]]]]:
    """model -> metric (pass, cost_usd) -> task -> the baseline's valid runs' values."""
    out: dict[str, dict[str, dict[str, list[float]]]] = {}
    for rec in latest(records):
        if str(rec.get("arm")) != baseline or not is_scored(rec) or not is_valid(rec):
            continue
        per = out.setdefault(str(rec.get("model")), {m: {} for m in FLOOR_METRICS})
        for metric in FLOOR_METRICS:
            value = stats.metric_value(rec, metric)
            if value is not None:
                per[metric].setdefault(str(rec.get("task")), []).append(value)
    return out


def floors(
    records: Iterable[Record],
    baseline: str = "baseline",
    *,
    primary: str = stats.PRIMARY,
    family: str = "model",
    rows: Sequence[ArmVerdict] | None = None,
) -> list[Floor]:
    """Per model: the floor an A/A would have from the baseline's run-to-run noise, then the
    floor of every comparison with the baseline (its own paired spread). `rows` are the
    verdicts of these records when the caller has them. Raises ValueError for an unknown
    primary or family (stats.verdicts)."""
    records = list(records)
    if rows is None:
        rows = stats.verdicts(records, baseline, primary=primary, family=family)
    base_values = _baseline_values(records, baseline)
    models = sorted({r["model"] for r in rows} | set(base_values))
    out: list[Floor] = []
    for model in models:
        mine = [r for r in rows if r["model"] == model]
        regular = next((r for r in mine if not r["twin"]), mine[0] if mine else None)
        pass_level, cost_level = _levels(regular, stats.canonical_metric(primary))
        base = base_values.get(model)
        if base is not None:
            p = run_to_run_sd(base["pass"])
            c = run_to_run_sd(base["cost_usd"], log=True)
            n = len(base["pass"])
            if p is not None or c is not None:
                pass_delta = None if p is None else detectable(n, p[0], pass_level)
                cost_delta = None if c is None else detectable(n, c[0], cost_level)
                out.append(
                    Floor(
                        model=model,
                        source=f"an A/A from {baseline}'s run-to-run noise",
                        tasks=n,
                        runs=(p or c or (0.0, 0.0))[1],
                        pass_pp=None if pass_delta is None else shown("rate_diff", pass_delta),
                        cost_pct=None if cost_delta is None else shown("ratio", cost_delta),
                        pass_level=pass_level,
                        cost_level=cost_level,
                    )
                )
        for row in mine:
            effects = {e.metric: e for e in row["effects"]}
            pass_e, cost_e = effects.get("pass"), effects.get("cost_usd")
            tasks = max((e.n_tasks for e in row["effects"]), default=0)
            runs = pass_e.spread.runs if pass_e is not None and pass_e.spread is not None else 0.0
            out.append(
                Floor(
                    model=model,
                    source=f"{row['arm']} vs {row['baseline']}" + (" (an A/A twin)" if row["twin"] else ""),
                    tasks=tasks,
                    runs=runs,
                    pass_pp=None if pass_e is None else effect_floor(pass_e),
                    cost_pct=None if cost_e is None else effect_floor(cost_e),
                    pass_level=pass_e.level if pass_e is not None else pass_level,
                    cost_level=cost_e.level if cost_e is not None else cost_level,
                )
            )
    return out


def describe(f: Floor) -> str:
    """ "pass ±21 pp (p < 0.045), cost ±6% (p < 0.00125)" ."""
    parts = []
    for name, value, kind, level in (
        ("pass", f.pass_pp, "rate_diff", f.pass_level),
        ("cost", f.cost_pct, "ratio", f.cost_level),
    ):
        if value is None:
            parts.append(f"{name} unknown (no spread to go by)")
        elif value == 0.0:
            parts.append(f"{name} no spread (every task moved alike)")
        else:
            parts.append(f"{floor_text(name, kind, value)} (p < {level:.2g})")
    return ", ".join(parts)
