"""Paired arm-vs-baseline statistics: pure functions, standard library only.

The task is the unit of analysis: every estimate first averages the runs of a task and then
treats tasks as the sample, and arm and baseline are paired by task, which removes the (large)
task-to-task difficulty spread from the comparison. One decision rule for every metric: the
paired t-test over tasks, its p adjusted over the family by the weighted Holm procedure of
`procedure.py`. The exact sign test it replaced dropped tied tasks (a third of them at 3 runs)
and ignored how far each task moved; at a nominal 5 % its real size was 1-3 %.

One concern a module, each importing only those above it:

- `distributions`: Wilson, the incomplete beta, t and normal quantiles and p-values, the sign
  test, Holm, the one bisection;
- `sample`: per-task means, the clustered SE, sd, the t-interval, the paired t-test's p;
- `power`: the power hint (needed tasks, needed runs, `Spread`);
- `metrics`: metric names, aliases, which are tested, a cell's value for each;
- `effects`: `Effect`, paired rate differences and log ratios, the decided word;
- `cells`: records into each arm's cells (values per task, invalid, missing, bad numbers);
- `missing`: what was left out, in words, and the bound on invalid cells (`Bound`);
- `rows`: the verdict rows (`ArmVerdict`, `verdicts`) and the family's adjustment (`adjust`);
- `gate`: the regression gate's rules and outcomes.

Every name importers used when this was one module is re-exported here, so
`from pytest_ponybench.analysis.stats import X` and `stats.X` keep working.

Degenerate inputs never raise and never produce NaN:
- no paired task: estimate 0.0, an unbounded interval, p 1.0, "undecided";
- one paired task: the estimate is that task's difference, an unbounded interval because a
  spread cannot be estimated from one point, p 1.0, "undecided". Unbounded means each kind's own
  range: (-100, 100) pp for a rate difference, (-100 %, inf) for a ratio;
- zero spread (every task moved by exactly the same amount): a t statistic of d/0 is not
  evidence and a point interval is not an interval. The test is then the exact sign test; a
  rate's interval is Newcombe's for the two arms' cell rates (the binomial noise of the cells:
  every task tied at 0/10 against 0/10 is +/-28 points, not a point), and such an effect is never
  "negligible"; a ratio's is the sign test's own (the distribution-free interval of the median,
  order statistics): unbounded below 6 tasks, where no sign test can reach 5 %, the common value
  from 6 on.
"""

from __future__ import annotations

from pytest_ponybench.analysis.stats.distributions import (
    ALPHA,
    MIN_SIGN_TASKS,
    Z_975,
    Interval,
    betainc,
    holm,
    newcombe,
    sign_tasks,
    sign_test_p,
    t_quantile,
    t_two_sided_p,
    wilson,
)
from pytest_ponybench.analysis.stats.effects import (
    BETTER,
    NEGLIGIBLE,
    TWO_SIDED,
    UNDECIDED,
    WORSE,
    Effect,
    decide,
    directed_p,
    is_negligible,
    paired_log_ratio,
    paired_rate_diff,
    with_p_adj,
)
from pytest_ponybench.analysis.stats.gate import (
    FAIL,
    PASS,
    UNTESTED,
    GateRule,
    compare_gate,
    gate_outcome,
    parse_gate,
)
from pytest_ponybench.analysis.stats.metrics import (
    BOUNDED,
    BREAKDOWN,
    FAMILY,
    LIMITS,
    METRIC_ALIASES,
    MISSING_WHY,
    PRIMARY,
    RATE_METRICS,
    RATIO_METRICS,
    SCORE,
    SHORT_NAMES,
    bad_number,
    canonical_metric,
    has_scores,
    judge_number,
    metric_value,
    pass_value,
    tested_metrics,
)
from pytest_ponybench.analysis.stats.missing import INVALID_GAP, Bound, bound, bounded
from pytest_ponybench.analysis.stats.power import (
    MAX_HINT_RUNS,
    MAX_HINT_TASKS,
    POWER,
    RATE_RESOLVE,
    RATIO_RESOLVE,
    Spread,
    needed_runs,
    needed_tasks,
    t_power,
)
from pytest_ponybench.analysis.stats.rows import ArmVerdict, adjust, primary_of, verdicts
from pytest_ponybench.analysis.stats.sample import (
    clustered_mean_se,
    finite_mean,
    paired_t_p,
    t_interval,
    task_means,
    task_rate,
)

__all__ = [
    "ALPHA",
    "ArmVerdict",
    "BETTER",
    "BOUNDED",
    "BREAKDOWN",
    "Bound",
    "Effect",
    "FAIL",
    "FAMILY",
    "GateRule",
    "INVALID_GAP",
    "Interval",
    "LIMITS",
    "MAX_HINT_RUNS",
    "MAX_HINT_TASKS",
    "METRIC_ALIASES",
    "MIN_SIGN_TASKS",
    "MISSING_WHY",
    "NEGLIGIBLE",
    "PASS",
    "POWER",
    "PRIMARY",
    "RATE_METRICS",
    "RATE_RESOLVE",
    "RATIO_METRICS",
    "RATIO_RESOLVE",
    "SCORE",
    "SHORT_NAMES",
    "Spread",
    "TWO_SIDED",
    "UNDECIDED",
    "UNTESTED",
    "WORSE",
    "Z_975",
    "adjust",
    "bad_number",
    "betainc",
    "bound",
    "bounded",
    "canonical_metric",
    "clustered_mean_se",
    "compare_gate",
    "decide",
    "directed_p",
    "finite_mean",
    "gate_outcome",
    "has_scores",
    "holm",
    "is_negligible",
    "judge_number",
    "metric_value",
    "needed_runs",
    "needed_tasks",
    "newcombe",
    "paired_log_ratio",
    "paired_rate_diff",
    "paired_t_p",
    "parse_gate",
    "pass_value",
    "primary_of",
    "sign_tasks",
    "sign_test_p",
    "t_interval",
    "t_power",
    "t_quantile",
    "t_two_sided_p",
    "task_means",
    "task_rate",
    "tested_metrics",
    "verdicts",
    "wilson",
    "with_p_adj",
]
