"""The sequential mode (`--until-decided`): look after every block of runs, stop once decided.

Pure functions over records; the runner calls `decide` after each block and writes the look it
returns into run.json, so that `--resume` continues the same design.

Rerunning a fixed design until it decides inflates false verdicts (every look is another
chance for noise to cross p < 0.05: from about 4 % to 12-17 % over a few reruns). This module
looks as often as the runner likes and keeps the guarantee, with a **group-sequential design**:
the level is spent across the looks by a Lan-DeMets spending function of the information
fraction (runs per task so far / `max_runs`), and each look tests the primary at the nominal
level the spending leaves for it. The boundaries come from the joint normal law of the looks'
statistics (independent increments: the mean of more runs of the same tasks), computed here by
numerical integration; each look's nominal two-sided level is applied to the verdict's own test,
the paired t-test over tasks (the usual small-sample conversion).

Why a group-sequential boundary and not an mSPRT: the design has a maximum (`--max-runs`,
`--max-tasks`, the budget), which the spending function uses to spend nothing it will not need,
and with 20 tasks an mSPRT's always-valid p leans on a variance known in advance, which a
benchmark never has. Why the Pocock-type spending (alpha log(1 + (e - 1) t)) by default: it
spends early, so a large effect stops at the first or second look (the point of the mode);
O'Brien-Fleming-type spending is available for a design that should rarely stop early.

At each look a comparison (an arm against the baseline on a model) ends as

- BETTER or WORSE: the primary's paired t-test rejects at the look's nominal level (its interval
  at that level's confidence, the repeated confidence interval, excludes no change), with the
  missing-cells bound agreeing where invalid shares differ (`stats.bounded`);
- NEGLIGIBLE ("provably negligible"): the repeated confidence interval lies within +/-`margin`
  (10 points for a rate, 10 % for a ratio, by default): whatever the effect is, it is smaller;
- CONTINUE: neither, and looks remain; UNDECIDED at the last look (`max_runs` reached).

The repeated confidence intervals hold the true effect at every look at once with probability
at least 1 - alpha, so a false BETTER, WORSE or NEGLIGIBLE happens at most that often, however
many looks there are and whenever the run is stopped (a budget stop only removes chances).

Levels: the primaries of one family (every arm of a model, or of the run) share PRIMARY_SHARE of
alpha equally; a comparison decided better or worse hands its share on to those still open
(graphical procedures for group-sequential designs, Maurer & Bretz 2013). The secondaries are
tested once, at the look where the run stops, at the nominal level their share would have at
that look (`final_verdicts`).

What `--resume` must carry (run.json "sequential", `Plan.to_json` and `Look.to_json`): the plan
(it may not change mid-run: a different maximum or spending function would re-spend the level)
and every look so far: its number, the runs per task it saw, its information fraction and each
comparison's outcome. A resumed run takes the next look only once a new block is complete;
decided comparisons stay decided.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from pytest_ponybench.analysis import procedure, stats
from pytest_ponybench.analysis.stats import ArmVerdict, Effect
from pytest_ponybench.analysis.stats.distributions import (
    bisect,
    normal_cdf,
    normal_upper,
    normal_upper_quantile,
)
from pytest_ponybench.core.records import Record, is_scored, latest

__all__ = [
    "BETTER",
    "CONTINUE",
    "Decision",
    "GRID",
    "Look",
    "NEGLIGIBLE",
    "Plan",
    "SETTLED",
    "SPENDING",
    "Step",
    "RUN_JSON_KEY",
    "UNDECIDED",
    "WORSE",
    "boundaries",
    "comparison_key",
    "decide",
    "describe_looks",
    "final_verdicts",
    "from_run_json",
    "nominal_at",
    "nominal_levels",
    "runs_so_far",
    "seen_by",
    "spent",
    "to_run_json",
]

BETTER = stats.BETTER
WORSE = stats.WORSE
NEGLIGIBLE = "negligible"
CONTINUE = "continue"
UNDECIDED = stats.UNDECIDED
SETTLED = (BETTER, WORSE, NEGLIGIBLE)
SPENDING = ("pocock", "obrien-fleming")
GRID = 241  # points per look in the numerical integration (odd: Simpson's rule)


# --- the boundary ---------------------------------------------------------------------------


def _phi(x: float) -> float:
    return math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def spent(fraction: float, alpha: float, spending: str = "pocock") -> float:
    """The level spent by information fraction t, both sides together: Lan-DeMets Pocock-type
    alpha log(1 + (e - 1) t), or O'Brien-Fleming-type applied to each side's alpha / 2,
    2 (2 - 2 Phi(z_{alpha/4} / sqrt(t))) (the convention of the published two-sided tables)."""
    t = min(1.0, max(0.0, fraction))
    if t <= 0.0:
        return 0.0
    if spending == "pocock":
        return alpha * math.log(1.0 + (math.e - 1.0) * t)
    if spending == "obrien-fleming":
        return 4.0 * normal_upper(normal_upper_quantile(alpha / 4.0) / math.sqrt(t))
    raise ValueError(f"unknown spending function {spending!r} (known: {', '.join(SPENDING)})")


def _simpson(n: int) -> list[float]:
    return [1.0 if i in (0, n - 1) else (4.0 if i % 2 else 2.0) for i in range(n)]


@functools.lru_cache(maxsize=512)
def boundaries(fractions: tuple[float, ...], alpha: float, spending: str = "pocock") -> tuple[float, ...]:
    """Two-sided z boundaries c_1..c_K for looks at increasing information fractions: under no
    effect, the chance of first crossing |Z| >= c_k at look k is what the spending function
    spends between fractions t_{k-1} and t_k (Armitage, McPherson and Rowe's recursion on the
    score S_k = Z_k sqrt(t_k), a Brownian motion in t). Raises ValueError for fractions that do
    not increase within (0, 1]."""
    if not fractions or any(not 0.0 < t <= 1.0 for t in fractions):
        raise ValueError(f"information fractions must lie in (0, 1], got {list(fractions)}")
    if any(b <= a for a, b in zip(fractions, fractions[1:], strict=False)):
        raise ValueError(f"information fractions must increase, got {list(fractions)}")
    weights = _simpson(GRID)
    out: list[float] = []
    grid: list[float] = []
    density: list[float] = []
    step = 0.0
    previous_t = 0.0
    previous_spent = 0.0
    for k, t in enumerate(fractions):
        target = spent(t, alpha, spending) - previous_spent
        if k == 0:
            c = normal_upper_quantile(target / 2.0) if target > 0 else math.inf
        else:
            sd = math.sqrt(t - previous_t)

            def crossing(
                c: float,
                sd: float = sd,
                t: float = t,
                density: list[float] = density,
                grid: list[float] = grid,
                step: float = step,
            ) -> float:
                edge = c * math.sqrt(t)
                return sum(
                    w * f * (normal_upper((edge - u) / sd) + normal_cdf((-edge - u) / sd))
                    for w, f, u in zip(weights, density, grid, strict=True)
                ) * (step / 3.0)

            if target <= 0 or crossing(40.0) >= target:
                c = math.inf if target <= 0 else 40.0
            else:

                def above(c: float, target: float = target) -> bool:
                    return crossing(c) > target

                lo, hi = bisect(above, 0.0, 40.0, steps=100, close=lambda lo, hi: hi - lo < 1e-9)
                c = 0.5 * (lo + hi)
        out.append(c)
        # The sub-density of S_k on the continuation region |S_k| < c sqrt(t_k).
        edge = min(c, 40.0) * math.sqrt(t)
        new_step = 2.0 * edge / (GRID - 1)
        new_grid = [-edge + i * new_step for i in range(GRID)]
        if k == 0:
            new_density = [_phi(x / math.sqrt(t)) / math.sqrt(t) for x in new_grid]
        else:
            sd = math.sqrt(t - previous_t)
            new_density = [
                sum(w * f * _phi((x - u) / sd) for w, f, u in zip(weights, density, grid, strict=True))
                * (step / 3.0)
                / sd
                for x in new_grid
            ]
        grid, density, step = new_grid, new_density, new_step
        previous_t = t
        previous_spent += target
    return tuple(out)


def nominal_levels(fractions: Sequence[float], alpha: float, spending: str = "pocock") -> list[float]:
    """Each look's two-sided nominal level, 2 (1 - Phi(c_k)): what a p must be below there."""
    return [
        2.0 * normal_upper(c) if math.isfinite(c) else 0.0
        for c in boundaries(tuple(fractions), alpha, spending)
    ]


# --- the plan and the looks -------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """The sequential design, fixed before the first look and carried in run.json."""

    max_runs: int  # runs per task at the last look
    block_runs: int = 1  # runs per task added between looks
    alpha: float = procedure.ALPHA  # the family's level; the primaries share PRIMARY_SHARE of it
    spending: str = "pocock"
    primary: str = stats.PRIMARY
    margin: float | None = None  # +/- pp (rate) or % (ratio) within which an effect is negligible
    baseline: str = "baseline"
    family: str = "model"

    def __post_init__(self) -> None:
        if self.max_runs < 1 or self.block_runs < 1:
            raise ValueError(f"max_runs and block_runs must be >= 1, got {self.max_runs}, {self.block_runs}")
        if not 0.0 < self.alpha < 1.0:
            raise ValueError(f"alpha must lie in (0, 1), got {self.alpha}")
        if self.spending not in SPENDING:
            raise ValueError(f"unknown spending function {self.spending!r} (known: {', '.join(SPENDING)})")
        if self.family not in procedure.FAMILIES:
            raise ValueError(f"unknown family {self.family!r} (known: {', '.join(procedure.FAMILIES)})")
        if self.margin is not None and not (math.isfinite(self.margin) and self.margin > 0):
            raise ValueError(f"margin must be a positive number, got {self.margin}")
        object.__setattr__(self, "primary", stats.canonical_metric(self.primary))

    @property
    def looks(self) -> int:
        """The most looks the design can take."""
        return math.ceil(self.max_runs / self.block_runs)

    def negligible_margin(self) -> float:
        if self.margin is not None:
            return self.margin
        kind_is_rate = self.primary not in stats.RATIO_METRICS
        return 100.0 * (stats.RATE_RESOLVE if kind_is_rate else stats.RATIO_RESOLVE)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Plan:
        """The plan as run.json holds it; ValueError naming the key that is missing or bad."""
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"sequential plan: unknown key(s) {', '.join(sorted(unknown))}")
        if "max_runs" not in data:
            raise ValueError("sequential plan: no max_runs")
        try:
            return cls(**dict(data))
        except TypeError as exc:
            raise ValueError(f"sequential plan: {exc}") from exc


@dataclass(frozen=True)
class Look:
    """One look as run.json keeps it: enough to continue the design on --resume."""

    number: int  # 1, 2, ...
    runs: int  # runs per task the look saw
    fraction: float  # information fraction: runs / max_runs
    outcomes: dict[str, str] = field(default_factory=dict)  # "model/arm" -> outcome at this look

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Look:
        try:
            outcomes = data.get("outcomes", {})
            if not isinstance(outcomes, Mapping):
                raise TypeError("outcomes is not a table")
            return cls(
                number=int(data["number"]),
                runs=int(data["runs"]),
                fraction=float(data["fraction"]),
                outcomes={str(k): str(v) for k, v in outcomes.items()},
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"sequential look {dict(data)!r}: {exc}") from exc


@dataclass(frozen=True)
class Decision:
    """One comparison at one look."""

    comparison: str  # "model/arm"
    model: str
    arm: str
    outcome: str  # BETTER, WORSE, NEGLIGIBLE, CONTINUE or UNDECIDED
    look: int  # the look that settled it (or this one)
    level: float  # the comparison's share of alpha at this look
    nominal: float  # the nominal two-sided level of this look at that share
    effect: Effect | None  # the primary at the look's confidence (None: settled earlier)


@dataclass(frozen=True)
class Step:
    """What a look decided, and what the runner writes and does next."""

    look: Look
    decisions: list[Decision]
    done: bool  # every comparison settled, or the last look taken

    def summary(self) -> str:
        parts = [f"{d.comparison} {d.outcome}" for d in self.decisions]
        return f"look {self.look.number} at {self.look.runs} runs per task: " + ", ".join(parts)


def comparison_key(model: str, arm: str) -> str:
    return f"{model}/{arm}"


def runs_so_far(records: Iterable[Record]) -> int:
    """Runs per task in the records: the highest run index with a record, plus one."""
    runs = [int(r["run"]) for r in latest(records) if is_scored(r) and isinstance(r.get("run"), int)]
    return max(runs) + 1 if runs else 0


def _comparisons(records: Iterable[Record], baseline: str) -> list[tuple[str, str]]:
    """(model, arm) of every comparison stats.verdicts makes of these records, in its order."""
    arms: dict[str, set[str]] = {}
    for rec in latest(records):
        if is_scored(rec):
            arms.setdefault(str(rec.get("model")), set()).add(str(rec.get("arm")))
    return [(model, arm) for model in sorted(arms) for arm in sorted(arms[model] - {baseline})]


def _fractions(plan: Plan, looks: Sequence[Look], runs: int) -> tuple[float, ...]:
    return (*(lk.fraction for lk in looks), min(1.0, runs / plan.max_runs))


def _negligible(e: Effect, margin: float) -> bool:
    """The repeated interval within +/-margin: whatever the effect is, it is smaller. Never for a
    rate with zero spread (every task tied, most often every cell failing on both arms: no
    evidence of a size). For a rate, the interval's spread is taken as at least its run-to-run
    part (the variance of a task's mean difference is never below the noise of its runs, which
    are independent given the task): where a few hard tasks carry all of the difference, the
    spread between tasks comes out too small by chance, and a claim that the effect is small
    must not rest on that (false "negligible" at the margin: 3.0 % without this floor, 0.9 %
    with it, in the simulator's hard-tasks world)."""
    if e.n_tasks < 2 or (e.zero_spread and e.kind == "rate_diff") or math.isinf(e.low) or math.isinf(e.high):
        return False
    if e.kind != "rate_diff":
        m = margin / 100.0
        return -100.0 * m / (1.0 + m) < e.low and e.high < 100.0 * m
    low, high = e.low, e.high
    spread = e.spread
    if (
        spread is not None
        and spread.within_var is not None
        and 0.0 < spread.sd < math.sqrt(spread.within_var)
    ):
        # Widened about its middle by the ratio of the two spreads (a bounded interval too:
        # wider is only ever more careful about "negligible").
        middle, half = (low + high) / 2.0, (high - low) / 2.0 * math.sqrt(spread.within_var) / spread.sd
        low, high = middle - half, middle + half
    return -margin < low and high < margin


def _shares(plan: Plan, keys: Sequence[tuple[str, str]], settled: Mapping[str, str]) -> dict[str, float]:
    """Each comparison's share of alpha at this look: the family's primaries split
    PRIMARY_SHARE of alpha equally; one decided better or worse hands its part to the rest."""
    families: dict[str, list[str]] = {}
    for model, arm in keys:
        families.setdefault("run" if plan.family == "run" else model, []).append(comparison_key(model, arm))
    shares: dict[str, float] = {}
    for members in families.values():
        rejected = [k for k in members if settled.get(k) in (BETTER, WORSE)]
        open_part = plan.alpha * procedure.PRIMARY_SHARE / max(1, len(members) - len(rejected))
        for k in members:
            shares[k] = open_part
    return shares


def _rows_at(records: Sequence[Record], plan: Plan, nominal: float) -> list[ArmVerdict]:
    """The verdict rows with every interval at a look's nominal level: the repeated intervals."""
    return stats.verdicts(
        records,
        plan.baseline,
        primary=plan.primary,
        family=plan.family,
        twins=False,
        confidence=1.0 - max(nominal, 1e-12),
    )


def decide(
    records: Iterable[Record],
    plan: Plan,
    looks: Sequence[Look] = (),
    runs: int | None = None,
    fraction: float | None = None,
) -> Step:
    """The next look: every comparison's outcome given the records so far and the looks before.

    `looks` are the looks already taken (from run.json on --resume); `runs` the runs per task
    complete in every arm (default: as the records show). The look's information fraction is
    runs / max_runs unless `fraction` is given: a runner that also adds tasks between looks
    (`--max-tasks`) passes the planned share of cells done, e.g. (tasks x runs so far) /
    (max tasks x max runs), which must grow from look to look and reach 1 at the last one.
    Comparisons settled at an earlier look keep their outcome. Raises ValueError when nothing
    was added since the last look (a look may not be taken twice on the same data) or the looks
    do not belong to the plan."""
    records = list(records)
    now = runs_so_far(records) if runs is None else runs
    if now < 1:
        raise ValueError("no run to look at yet")
    if looks and any(lk.number != i + 1 for i, lk in enumerate(looks)):
        raise ValueError(f"looks out of order: {[lk.number for lk in looks]}")
    if fraction is not None and not 0.0 < fraction <= 1.0:
        raise ValueError(f"the information fraction must lie in (0, 1], got {fraction}")
    fractions = (
        _fractions(plan, looks, now) if fraction is None else (*(lk.fraction for lk in looks), fraction)
    )
    if looks and fractions[-1] <= looks[-1].fraction:
        raise ValueError(
            f"no new runs since look {looks[-1].number} ({looks[-1].runs} runs per task, "
            f"information {looks[-1].fraction:.3g})"
        )
    number = len(looks) + 1
    final = fractions[-1] >= 1.0
    settled = {k: v for lk in looks for k, v in lk.outcomes.items() if v in SETTLED}
    keys = _comparisons(records, plan.baseline)
    shares = _shares(plan, keys, settled)
    margin = plan.negligible_margin()
    decisions: list[Decision] = []
    by_level: dict[float, list[ArmVerdict]] = {}
    for key in keys:
        ck = comparison_key(*key)
        if ck not in settled:
            level = shares[ck]
            nominal = nominal_levels(fractions, level, plan.spending)[-1]
            if nominal not in by_level:
                by_level[nominal] = _rows_at(records, plan, nominal)
    for model, arm in keys:
        ck = comparison_key(model, arm)
        level = shares[ck]
        if ck in settled:
            first = next(lk.number for lk in looks if lk.outcomes.get(ck) == settled[ck])
            decisions.append(Decision(ck, model, arm, settled[ck], first, level, 0.0, None))
            continue
        nominal = nominal_levels(fractions, level, plan.spending)[-1]
        row = next(r for r in by_level[nominal] if (r["model"], r["arm"]) == (model, arm))
        effect = next(e for e in row["effects"] if e.primary)
        word = stats.decide(effect.low, effect.high, effect.p, effect.lower_is_better, alpha=nominal)
        if word in (BETTER, WORSE):
            outcome = word
        elif _negligible(effect, margin):
            outcome = NEGLIGIBLE
        else:
            outcome = UNDECIDED if final else CONTINUE
        decisions.append(Decision(ck, model, arm, outcome, number, level, nominal, effect))
    look = Look(
        number=number,
        runs=now,
        fraction=fractions[-1],
        outcomes={d.comparison: d.outcome for d in decisions},
    )
    done = final or all(d.outcome in SETTLED for d in decisions)
    return Step(look=look, decisions=decisions, done=done)


def nominal_at(plan: Plan, looks: Sequence[Look]) -> Callable[[float], float]:
    """A share of alpha -> the nominal level it has at the last of `looks` (for testing the
    secondaries once, where the run stopped)."""
    fractions = tuple(lk.fraction for lk in looks)
    if not fractions:
        raise ValueError("no look taken yet")

    def level(share: float) -> float:
        if share <= 0:
            return 0.0
        return nominal_levels(fractions, min(share, 1.0 - 1e-12), plan.spending)[-1]

    return level


def _repeated(
    records: Sequence[Record], plan: Plan, looks: Sequence[Look]
) -> dict[tuple[str, str], tuple[float, Effect]]:
    """Each comparison's primary as its repeated confidence interval at the last look: the
    nominal level of its share (the share it had at the look that settled it, or at the last
    look), over the fractions of every look taken. The repeated intervals hold the truth at
    every look at once with probability 1 - alpha, so the one shown after a stop covers whenever
    the run stopped; the 95 % interval of the last look's data does not (it covered 92-93 % in
    an A/A)."""
    keys = _comparisons(records, plan.baseline)
    fractions = tuple(lk.fraction for lk in looks)
    nominal: dict[tuple[str, str], float] = {}
    for model, arm in keys:
        ck = comparison_key(model, arm)
        at = next((i for i, lk in enumerate(looks) if lk.outcomes.get(ck) in SETTLED), len(looks) - 1)
        before = {k: v for lk in looks[:at] for k, v in lk.outcomes.items() if v in SETTLED}
        share = _shares(plan, keys, before)[ck]
        nominal[(model, arm)] = nominal_levels(fractions, share, plan.spending)[-1]
    rows_at: dict[float, list[ArmVerdict]] = {}
    out: dict[tuple[str, str], tuple[float, Effect]] = {}
    for key, level in nominal.items():
        if level not in rows_at:
            rows_at[level] = _rows_at(records, plan, level)
        row = next((r for r in rows_at[level] if (r["model"], r["arm"]) == key), None)
        effect = None if row is None else next((e for e in row["effects"] if e.primary), None)
        if row is not None and effect is not None:
            valid = next((b.valid for b in row["bounds"] if b.metric == effect.metric), None)
            vetoed = (
                valid is not None
                and stats.decide(valid.low, valid.high, valid.p, valid.lower_is_better, alpha=level)
                != stats.UNDECIDED
            )
            out[key] = (level, replace(effect, repeated=level, level=level, vetoed=vetoed))
    return out


def final_verdicts(records: Iterable[Record], plan: Plan, looks: Sequence[Look]) -> list[ArmVerdict]:
    """The verdict rows of a sequential run that stopped at the last of `looks`.

    The primary's verdict is the sequential decision (better or worse where a look settled it,
    undecided otherwise, negligible included: it is not a direction). The secondaries are tested
    here, once, by the weighted step-down at this look's nominal levels, with the primary counted
    as decided exactly where the sequence decided it (so its share is handed on then). The
    primary's interval is its repeated confidence interval at the last look (`Effect.repeated`,
    which the block says), its estimate the last look's (biased away from no change by stopping
    when decided, which the block says too). Phase 2 renders these."""
    records = list(records)
    if not looks:
        raise ValueError("no look taken yet")
    level_at = nominal_at(plan, looks)
    rows = stats.verdicts(
        records, plan.baseline, primary=plan.primary, family=plan.family, alpha=plan.alpha, twins=False
    )
    repeated = _repeated(records, plan, looks)
    last = looks[-1].outcomes
    shown: dict[tuple[str, str], Effect] = {}
    for row in rows:
        outcome = last.get(comparison_key(row["model"], row["arm"]), UNDECIDED)
        effects = []
        for e in row["effects"]:
            if e.primary:
                decided = outcome in (BETTER, WORSE)
                found = repeated.get((row["model"], row["arm"]))
                base = found[1] if found is not None else e
                shown[(row["model"], row["arm"])] = replace(
                    base, verdict=outcome if decided else UNDECIDED, vetoed=base.vetoed and not decided
                )
                # The step-down sees the sequence's decision, not a second test of the primary.
                e = replace(e, p=0.0 if decided else 1.0)
            effects.append(e)
        row["effects"] = effects
    families: dict[tuple[str, str], list[ArmVerdict]] = {}
    for row in rows:
        families.setdefault((row["family"].mode, row["family"].label), []).append(row)
    stats.adjust(families.values(), alpha=plan.alpha, labels=list(families), nominal=level_at)
    for row in rows:
        primary = shown.get((row["model"], row["arm"]))
        row["effects"] = [primary if e.primary and primary is not None else e for e in row["effects"]]
    return rows


RUN_JSON_KEY = "sequential"  # run.json: {"plan": Plan.to_json(), "looks": [Look.to_json(), ...]}


def from_run_json(run: Mapping[str, Any]) -> tuple[Plan, list[Look]] | None:
    """The design and the looks a run dir's run.json carries; None for a fixed design.
    ValueError naming the key for a malformed one."""
    data = run.get(RUN_JSON_KEY)
    if data is None:
        return None
    if not isinstance(data, Mapping) or not isinstance(data.get("plan"), Mapping):
        raise ValueError(f"run.json key {RUN_JSON_KEY!r} is not a sequential design")
    looks = data.get("looks") or []
    if not isinstance(looks, list) or not all(isinstance(lk, Mapping) for lk in looks):
        raise ValueError(f"run.json key {RUN_JSON_KEY}.looks is not a list of looks")
    return Plan.from_json(data["plan"]), [Look.from_json(lk) for lk in looks]


def to_run_json(plan: Plan, looks: Sequence[Look]) -> dict[str, Any]:
    return {"plan": plan.to_json(), "looks": [lk.to_json() for lk in looks]}


def seen_by(records: Iterable[Record], looks: Sequence[Look]) -> list[Record]:
    """The records the last look saw: the runs per task up to it (cells of later runs that
    were already running when the run stopped are kept in results.jsonl, and left out here)."""
    if not looks:
        return list(records)
    runs = looks[-1].runs
    return [
        r
        for r in records
        if isinstance(r.get("run"), int) and not isinstance(r.get("run"), bool) and r["run"] < runs
    ]


def describe_looks(looks: Sequence[Look], plan: Plan) -> list[str]:
    """One line per look, then how the design ended."""
    lines = [
        f"look {lk.number} of at most {plan.looks}, at {lk.runs} run(s) per task: "
        + ", ".join(f"{k} {v}" for k, v in lk.outcomes.items())
        for lk in looks
    ]
    if looks:
        last = looks[-1]
        settled = all(v in SETTLED for v in last.outcomes.values())
        end = (
            "every comparison settled"
            if settled
            else "the last look taken"
            if last.fraction >= 1
            else "still open"
        )
        lines.append(f"sequential design: {end} after {last.runs} of at most {plan.max_runs} runs per task")
    return lines
