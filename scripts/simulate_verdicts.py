"""Monte Carlo check of the verdicts: false verdicts, interval coverage, power and spend.

Synthetic records go through the same code as a real run (`stats.verdicts`, `verdict.check_gate`,
`sequential.decide`), so what this prints is the behaviour of the shipped procedure, not of a
formula. Fixed seeds: the same command prints the same figures. Every figure is followed by its
Monte Carlo standard error (the +/-), from the number of replications.

    python scripts/simulate_verdicts.py                  # the README's figures (1,000 per scenario)
    python scripts/simulate_verdicts.py --reps 100       # a quick look

The main world: tasks differ a lot in difficulty (each task's pass probability is drawn from
0.15-0.60), runs of one task share it; a cell that fails is incorrect (70 %), unsafe (20 %) or
both. Code size, tokens, cost and time are log-normal with a task level and run noise (cost
follows tokens). An effect adds the same number of points to every task's pass probability, so
the true mean difference is known exactly. The other worlds change one thing each: effects that
differ from task to task, tasks stuck at the floor or the ceiling, hard tasks that every arm
nearly always fails, invalid cells that hide failures or fall at random (and are retried at the
end, as a fixed run does), cells the scorer never scored, several models, a run that looks after
every block of runs, a hint taken from a pilot, a pre-declared direction.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pytest_ponybench.analysis import noise, procedure, sequential, stats, verdict
from pytest_ponybench.core.records import Record, loaded

GATE = "pass:-10pp,loc:+20%,cost:+20%"
# Rows without an effect measure a false-verdict rate that sits near the 5 % it promises: they run
# this many times the replications, for a Monte Carlo error small enough to read (0.34 points
# at 5 % over 4,000).
NULL_FACTOR = 4


@dataclass(frozen=True)
class Shape:
    tasks: int
    runs: int


@dataclass(frozen=True)
class World:
    """How tasks are drawn and how an arm's lift lands on a task."""

    name: str
    difficulty: Callable[[random.Random], float]
    # (rng, the task's baseline p, the scenario's lift) -> the arm's p on that task
    arm_p: Callable[[random.Random, float, float], float]


def _constant_lift(_rng: random.Random, p: float, lift: float) -> float:
    return min(1.0, max(0.0, p + lift))


MAIN = World("main", lambda rng: rng.uniform(0.15, 0.60), _constant_lift)
# Tasks spread wider (0.05-0.65): less run-to-run noise per task, the kind of world in which the
# paired t-test alone finds +25 points over 20 x 3 about 81 % of the time.
WIDE = World("wide", lambda rng: rng.uniform(0.05, 0.65), _constant_lift)
# Effects that differ from task to task: +/-25 points around the mean, uniformly; difficulty
# kept in 0.25-0.55 so that no task leaves [0, 1] and the true mean is the lift exactly.
HETERO = World(
    "heterogeneous",
    lambda rng: rng.uniform(0.25, 0.55),
    lambda rng, p, lift: p + lift + rng.uniform(-0.25, 0.25),
)


def _floor_ceiling(rng: random.Random) -> float:
    u = rng.random()
    if u < 0.35:
        return 0.02  # nearly always fails
    if u < 0.70:
        return 0.98  # nearly always passes
    return rng.uniform(0.3, 0.7)


# Hard tasks: the baseline nearly always fails (0-5 %), so that at an early look every cell of
# both arms often fails and every task ties; an effect lifts every task by the same points.
HARD = World("hard", lambda rng: rng.uniform(0.0, 0.05), _constant_lift)


# A task at the ceiling cannot gain: the arm's p is capped at 1. With a 20-point lift the true
# mean effect is 0.35 * 0.20 + 0.35 * 0.02 + 0.30 * 0.20 = 13.7 points.
FLOOR_CEILING = World("floor/ceiling", _floor_ceiling, _constant_lift)
FLOOR_CEILING_TRUTH = {0.0: 0.0, 0.20: 0.137}


def _task_world(rng: random.Random, world: World) -> dict[str, float]:
    return {
        "p": world.difficulty(rng),
        "loc": rng.gauss(math.log(60), 0.8),
        "tok": rng.gauss(math.log(20_000), 0.6),
        "time": rng.gauss(math.log(40_000), 0.5),
    }


def _cell(
    rng: random.Random, task: dict[str, float], p: float, arm: str, t: int, r: int, model: str
) -> Record:
    ok = rng.random() < p
    why = rng.random()
    correct = ok or why >= 0.7
    safe = ok or why < 0.7 or why >= 0.9
    if not ok and correct and safe:
        correct = False
    tok = math.exp(task["tok"] + rng.gauss(0, 0.25))
    return loaded(
        {
            "task": f"t{t:03d}",
            "arm": arm,
            "model": model,
            "run": r,
            "valid": True,
            "correct": correct,
            "safe": safe,
            "total_loc": max(1, round(math.exp(task["loc"] + rng.gauss(0, 0.3)))),
            "input_tokens": round(tok),
            "output_tokens": round(tok / 10),
            "cost_usd": tok * 3e-6 * math.exp(rng.gauss(0, 0.05)),
            "duration_ms": round(math.exp(task["time"] + rng.gauss(0, 0.3))),
        }
    )


@dataclass(frozen=True)
class Faults:
    """What goes wrong with cells, beside the arm's quality.

    `hide_failures`: the share of the arm's failing cells that come back invalid (missing not at
    random: timeouts on what it cannot do). `invalid`: the share of every cell, either arm, that
    comes back invalid at random (an API error). `retries`: how often an invalid cell is run
    again (at the end of the run, as a fixed design does): a fresh session of the same cell,
    which the same mechanisms may make invalid again. `unscored_base`, `unscored_arm`: the share
    of the baseline's (the arm's) valid cells whose scorer gave no correct/safe (`None`), at
    random; `unscored_arm_failures`: of the arm's failing cells only (not at random)."""

    hide_failures: float = 0.0
    invalid: float = 0.0
    retries: int = 0
    unscored_base: float = 0.0
    unscored_arm: float = 0.0
    unscored_arm_failures: float = 0.0


NO_FAULTS = Faults()


def _attempts(rng: random.Random, draw: Callable[[], Record], arm: str, faults: Faults) -> list[Record]:
    """A cell's attempts as results.jsonl would hold them: invalid ones retried up to `retries`."""
    out: list[Record] = []
    for attempt in range(1, faults.retries + 2):
        cell = draw()
        cell["attempt"] = attempt
        failed = not (cell["correct"] and cell["safe"])
        if arm == "mine" and failed and faults.hide_failures and rng.random() < faults.hide_failures:
            cell.update({"valid": False, "error": "timed out (simulated)"})
        elif faults.invalid and rng.random() < faults.invalid:
            cell.update({"valid": False, "error": "API error 529 (simulated)"})
        else:
            share = faults.unscored_base if arm == "baseline" else faults.unscored_arm
            hidden = (
                arm == "mine" and failed and bool(faults.unscored_arm_failures)
            ) and rng.random() < faults.unscored_arm_failures
            if hidden or (share and rng.random() < share):
                cell = loaded({**cell, "correct": None, "safe": None})  # the scorer said nothing
        out.append(cell)
        if cell["valid"]:
            break
    return out


def grid(
    rng: random.Random,
    shape: Shape,
    lift: float,
    *,
    world: World = MAIN,
    models: Sequence[str] = ("sim",),
    hide_failures: float = 0.0,
    faults: Faults = NO_FAULTS,
) -> list[Record]:
    """One replication: baseline and `mine` on every task and run of every model (each model
    with tasks of its own); `mine` gains `lift`. `hide_failures` is `faults.hide_failures`."""
    if hide_failures:
        faults = Faults(**{**faults.__dict__, "hide_failures": hide_failures})
    records = []
    for model in models:
        for t in range(shape.tasks):
            task = _task_world(rng, world)
            p_arm = world.arm_p(rng, task["p"], lift)
            for r in range(shape.runs):
                for arm, p in (("baseline", task["p"]), ("mine", p_arm)):
                    draw = functools.partial(_cell, rng, task, p, arm, t, r, model)
                    records += _attempts(rng, draw, arm, faults)
    return records


# --- figures with their Monte Carlo error ------------------------------------------------------


def share(k: float, n: int) -> str:
    """A share in % with its Monte Carlo standard error."""
    if n == 0:
        return "-"
    p = k / n
    return f"{100 * p:5.1f}% ± {100 * math.sqrt(p * (1 - p) / n):.1f}"


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var / n)


def effects_of(row: stats.ArmVerdict) -> dict[str, stats.Effect]:
    return {e.metric: e for e in row["effects"]}


def decided(e: stats.Effect) -> bool:
    return verdict.is_decided(e)


def holm_before(row: stats.ArmVerdict) -> dict[str, bool]:
    """The release before: Holm over pass, loc, cost, tokens, time at 5 %, on the raw p."""
    tested = [e for e in row["effects"] if e.metric in stats.FAMILY and e.n_tasks > 0]
    adjusted = stats.holm([e.p for e in tested])
    return {
        e.metric: stats.decide(e.low, e.high, p, e.lower_is_better) != stats.UNDECIDED
        for e, p in zip(tested, adjusted, strict=True)
    }


def covers(e: stats.Effect, truth: float) -> bool:
    return e.low <= truth <= e.high


def tally(n: int, records: Callable[[], list[Record]], truth: float) -> tuple[int, int, int, int]:
    """Over n replications of one arm against the baseline: blocks that decided anything, pass
    called better, pass called worse, pass's interval covering `truth` (points)."""
    anything = better = worse = cov = 0
    for _ in range(n):
        (row,) = stats.verdicts(records())
        e = effects_of(row)["pass"]
        anything += any(decided(x) for x in row["effects"])
        better += e.verdict == stats.BETTER
        worse += e.verdict == stats.WORSE
        cov += covers(e, truth)
    return anything, better, worse, cov


def header(title: str, columns: str) -> None:
    print()
    print(title)
    print("  " + columns)


# --- scenarios ---------------------------------------------------------------------------------


def aa(reps: int, seed: int) -> None:
    reps *= NULL_FACTOR
    header(
        "A/A, one arm (the primary procedure): false verdicts per block, coverage",
        "tasks x runs   any metric decided   before (Holm over 5)   gate failed        "
        "pass 95% covers 0   loc 95% covers 0   pass alone at 5%",
    )
    for i, shape in enumerate([Shape(10, 3), Shape(20, 1), Shape(20, 3), Shape(20, 5), Shape(40, 3)]):
        rng = random.Random(seed + i)
        now = before = gate = cov_pass = cov_loc = alone = 0
        for _ in range(reps):
            rows = stats.verdicts(grid(rng, shape, 0.0))
            (row,) = rows
            eff = effects_of(row)
            alone += eff["pass"].p < stats.ALPHA
            now += any(decided(e) for e in row["effects"])
            before += any(holm_before(row).values())
            gate += bool(verdict.check_gate(rows, GATE))
            cov_pass += covers(eff["pass"], 0.0)
            cov_loc += covers(eff["total_loc"], 0.0)
        print(
            f"  {shape.tasks:5d} x {shape.runs:<4d}  {share(now, reps):>19}  {share(before, reps):>21}  "
            f"{share(gate, reps):>11}  {share(cov_pass, reps):>17}  {share(cov_loc, reps):>16}"
            f"  {share(alone, reps):>16}"
        )


def power(reps: int, seed: int) -> None:
    header(
        "Power, one arm (pass called better; every task gains the same points)",
        "effect  tasks x runs   now (pass first)   before (Holm over 5)   pass alone at 5%   "
        "pass 95% covers the effect",
    )
    cases = [
        (0.25, Shape(20, 3), MAIN),
        (0.25, Shape(10, 3), MAIN),
        (0.15, Shape(40, 3), MAIN),
        (0.25, Shape(20, 1), MAIN),
        (0.25, Shape(20, 3), WIDE),
    ]
    for j, (lift, shape, world) in enumerate(cases):
        rng = random.Random(seed + 100 + j)
        now = before = alone = cov = 0
        for _ in range(reps):
            (row,) = stats.verdicts(grid(rng, shape, lift, world=world))
            e = effects_of(row)["pass"]
            now += e.verdict == stats.BETTER
            before += holm_before(row).get("pass", False) and e.estimate > 0
            alone += e.p < stats.ALPHA and e.low > 0
            cov += covers(e, 100 * lift)
        print(
            f"  +{100 * lift:.0f} pp  {shape.tasks:5d} x {shape.runs:<4d}  {share(now, reps):>17}  "
            f"{share(before, reps):>21}  {share(alone, reps):>17}  {share(cov, reps):>26}"
            + ("" if world is MAIN else f"   (tasks 0.05-0.65: the {world.name} world)")
        )


def worlds(reps: int, seed: int) -> None:
    header(
        "Other worlds, 20 tasks x 3 runs",
        "world           true effect   any metric decided   pass better        pass worse       "
        "pass 95% covers the truth",
    )
    cases = [
        (HETERO, 0.0, 0.0),
        (HETERO, 0.15, 0.15),
        (FLOOR_CEILING, 0.0, FLOOR_CEILING_TRUTH[0.0]),
        (FLOOR_CEILING, 0.20, FLOOR_CEILING_TRUTH[0.20]),
    ]
    for j, (world, lift, truth) in enumerate(cases):
        n = reps * NULL_FACTOR if lift == 0 else reps
        rng = random.Random(seed + 200 + j)
        draw = functools.partial(grid, rng, Shape(20, 3), lift, world=world)
        anything, better, worse, cov = tally(n, draw, 100 * truth)
        print(
            f"  {world.name:<14}  {100 * truth:+8.1f} pp  {share(anything, n):>19}"
            f"  {share(better, n):>16}  {share(worse, n):>15}  {share(cov, n):>25}"
        )


def missing(reps: int, seed: int) -> None:
    header(
        "Missing not at random: a share of the arm's failing cells come back invalid, 20 x 3",
        "hidden  effect   pass better (bounded)   valid cells alone   covers (bounded)   "
        "covers (valid alone)",
    )
    for j, (hidden, lift) in enumerate([(0.2, 0.0), (0.4, 0.0), (0.2, 0.25)]):
        n = reps * NULL_FACTOR if lift == 0 else reps
        rng = random.Random(seed + 300 + j)
        better = naive = cov = cov_naive = 0
        for _ in range(n):
            (row,) = stats.verdicts(grid(rng, Shape(20, 3), lift, hide_failures=hidden))
            e = effects_of(row)["pass"]
            better += e.verdict == stats.BETTER
            cov += covers(e, 100 * lift)
            bound = next((b for b in row["bounds"] if b.metric == "pass"), None)
            valid = e if bound is None else bound.valid
            naive += valid.p < e.level and valid.low > 0
            cov_naive += covers(valid, 100 * lift)
        print(
            f"  {100 * hidden:4.0f}%  +{100 * lift:2.0f} pp  {share(better, n):>22}"
            f"  {share(naive, n):>18}  {share(cov, n):>17}  {share(cov_naive, n):>20}"
        )


def models(reps: int, seed: int) -> None:
    reps *= NULL_FACTOR
    header(
        "A/A over 3 models x 1 arm, 20 x 3: anything decided anywhere in the run",
        "family                        any decided",
    )
    for j, family in enumerate(procedure.FAMILIES):
        rng = random.Random(seed + 400 + j)
        anything = 0
        for _ in range(reps):
            rows = stats.verdicts(grid(rng, Shape(20, 3), 0.0, models=("a", "b", "c")), family=family)
            anything += any(decided(e) for row in rows for e in row["effects"])
        label = "model (each model alone)" if family == "model" else "run (every arm and model)"
        print(f"  {label:<28}  {share(anything, reps):>11}")


@dataclass
class SequentialRun:
    """One sequential run: how it ended, what it spent, and what it showed."""

    outcome: str
    runs: int  # runs per task it spent
    shown: stats.Effect  # the primary as the block shows it after the stop (final_verdicts)
    last_look: stats.Effect  # the last look's data at 95 %: what the block showed before
    before: str  # the outcome had a tie on every task been read as the point [0, 0] (the release before)
    fixed_better: list[bool]  # the fixed design's pass verdict at every run count
    fixed_any: list[bool]


def _sequential_rep(
    rng: random.Random,
    lift: float,
    plan: sequential.Plan,
    tasks: int,
    world: World = MAIN,
    *,
    fixed: bool = True,
) -> SequentialRun:
    """One sequential run; with `fixed`, also the fixed design's verdict at every run count (for
    the naive rerun and the design of equal power, which cost most of the time)."""
    records = grid(rng, Shape(tasks, plan.max_runs), lift, world=world)
    looks: list[sequential.Look] = []
    outcome = before = sequential.CONTINUE
    spent = plan.max_runs
    for runs in range(plan.block_runs, plan.max_runs + 1, plan.block_runs):
        upto = [r for r in records if r["run"] < runs]
        step = sequential.decide(upto, plan, looks, runs=runs)
        looks.append(step.look)
        (decision,) = step.decisions
        outcome = decision.outcome
        effect = decision.effect
        if before not in sequential.SETTLED and effect is not None:
            tie = effect.tied and effect.n_tasks >= stats.sign_tasks(decision.nominal)
            before = sequential.NEGLIGIBLE if tie and outcome not in sequential.SETTLED else outcome
        if step.done:
            spent = runs
            break
    seen = [r for r in records if r["run"] < spent]
    (row,) = sequential.final_verdicts(seen, plan, looks)
    (last,) = stats.verdicts(seen)
    fixed_better: list[bool] = []
    fixed_any: list[bool] = []
    for runs in range(1, plan.max_runs + 1 if fixed else 1):
        (row_at,) = stats.verdicts([r for r in records if r["run"] < runs])
        e = effects_of(row_at)["pass"]
        fixed_better.append(e.verdict == stats.BETTER)
        fixed_any.append(e.verdict != stats.UNDECIDED)
    return SequentialRun(
        outcome=outcome,
        runs=spent,
        shown=effects_of(row)["pass"],
        last_look=effects_of(last)["pass"],
        before=before if before in sequential.SETTLED else outcome,
        fixed_better=fixed_better,
        fixed_any=fixed_any,
    )


def sequential_mode(reps: int, seed: int) -> None:
    header(
        "Sequential (--until-decided), 20 tasks, a look after every run up to 10 (the default), "
        "Pocock-type spending",
        "effect  false verdict      pass better        negligible         mean runs     "
        "fixed design of equal power   spend vs it    interval shown covers   95% of the last look covers",
    )
    for j, lift in enumerate((0.0, 0.25, 0.40)):
        n = reps * NULL_FACTOR if lift == 0 else reps
        rng = random.Random(seed + 500 + j)
        plan = sequential.Plan(max_runs=10)
        found = [_sequential_rep(rng, lift, plan, 20) for _ in range(n)]
        # No effect: better or worse is false (negligible is true). An effect beyond the margin:
        # worse or negligible is false.
        wrong = (
            (sequential.BETTER, sequential.WORSE) if lift == 0 else (sequential.WORSE, sequential.NEGLIGIBLE)
        )
        false = sum(f.outcome in wrong for f in found)
        better = sum(f.outcome == sequential.BETTER for f in found)
        negligible = sum(f.outcome == sequential.NEGLIGIBLE for f in found)
        m, se = mean_se([float(f.runs) for f in found])
        covers_shown = sum(covers(f.shown, 100 * lift) for f in found)
        covers_last = sum(covers(f.last_look, 100 * lift) for f in found)
        equal = ratio = "-"
        if lift > 0:
            seq_power = better / n
            powers = [sum(f.fixed_better[r] for f in found) / n for r in range(plan.max_runs)]
            need = next((r + 1 for r, pw in enumerate(powers) if pw >= seq_power), None)
            if need is not None:
                equal = f"{need} runs ({100 * powers[need - 1]:.1f}% power)"
                ratio = f"{100 * m / need:5.1f}% ± {100 * se / need:.1f}"
            else:
                equal = f"more than {plan.max_runs} runs"
        print(
            f"  +{100 * lift:2.0f} pp  {share(false, n):>13}  {share(better, n):>16}"
            f"  {share(negligible, n):>16}  {m:5.2f} ± {se:.2f}  {equal:>27}  {ratio:>12}"
            f"  {share(covers_shown, n):>21}  {share(covers_last, n):>27}"
        )
        if lift > 0:
            bias, bias_se = mean_se([f.shown.estimate - 100 * lift for f in found])
            print(f"           the estimate after the stop: {bias:+.1f} ± {bias_se:.1f} pp from the truth")
        else:
            naive = sum(any(f.fixed_any) for f in found)
            once = sum(f.fixed_any[-1] for f in found)
            print(
                f"           rerunning the fixed design after every run until it decides: "
                f"{share(naive, n)} false verdicts; looking once, at 10 runs: {share(once, n)}"
            )


def hard_tasks(reps: int, seed: int) -> None:
    """Tasks every arm nearly always fails: at an early look every task often ties. A tie read
    as the point [0, 0] stopped the run as negligible; now its interval is the cells' binomial
    noise and it is never negligible."""
    header(
        "Hard tasks (the baseline passes 0-5 %), 10 tasks, --until-decided up to 10 runs",
        "effect  false negligible   before (a tie read as [0, 0])   pass better       "
        "mean runs     interval shown covers",
    )
    for j, lift in enumerate((0.0, 0.10, 0.15)):
        n = reps * NULL_FACTOR if lift == 0 else reps
        rng = random.Random(seed + 1000 + j)
        plan = sequential.Plan(max_runs=10)
        found = [_sequential_rep(rng, lift, plan, 10, HARD, fixed=False) for _ in range(n)]
        # Negligible claims the effect is within +/-10 points: false at +10 and beyond.
        false = sum(f.outcome == sequential.NEGLIGIBLE for f in found) if lift >= 0.10 else 0
        before = sum(f.before == sequential.NEGLIGIBLE for f in found) if lift >= 0.10 else 0
        better = sum(f.outcome == sequential.BETTER for f in found)
        m, se = mean_se([float(f.runs) for f in found])
        cov = sum(covers(f.shown, 100 * lift) for f in found)
        shown_false = share(false, n) if lift >= 0.10 else "(true)"
        shown_before = share(before, n) if lift >= 0.10 else "-"
        print(
            f"  +{100 * lift:2.0f} pp  {shown_false:>16}  {shown_before:>30}  {share(better, n):>15}"
            f"  {m:5.2f} ± {se:.2f}  {share(cov, n):>21}"
        )


def unscored(reps: int, seed: int) -> None:
    """Cells whose scorer never gave correct/safe: left out and bounded like invalid cells,
    never counted as failures on either side."""
    header(
        "Unscored cells (correct/safe null), 20 x 3",
        "which cells                                  effect   pass better       pass worse        "
        "pass 95% covers the truth",
    )
    cases = [
        ("every baseline cell", Faults(unscored_base=1.0), 0.0),
        ("every arm cell", Faults(unscored_arm=1.0), 0.0),
        ("10% of the baseline's, at random", Faults(unscored_base=0.10), 0.0),
        ("20% of the arm's failing cells", Faults(unscored_arm_failures=0.20), 0.0),
        ("10% of the baseline's, at random", Faults(unscored_base=0.10), 0.25),
    ]
    for j, (label, faults, lift) in enumerate(cases):
        n = reps * NULL_FACTOR if lift == 0 else reps
        rng = random.Random(seed + 1100 + j)
        draw = functools.partial(grid, rng, Shape(20, 3), lift, faults=faults)
        _, better, worse, cov = tally(n, draw, 100 * lift)
        print(
            f"  {label:<43}  +{100 * lift:2.0f} pp  {share(better, n):>15}  {share(worse, n):>15}"
            f"  {share(cov, n):>25}"
        )


def random_invalid(reps: int, seed: int) -> None:
    """Invalid cells at random on both arms (an API error): the bound on them vetoes a real
    effect the valid cells would decide; a retry at the end leaves it fewer cells to veto."""
    header(
        "Invalid cells at random on both arms, 20 x 3",
        "invalid  effect   no retry (bounded)   1 retry at the end (the default)   "
        "valid cells alone, no retry",
    )
    for j, (invalid, lift) in enumerate([(0.05, 0.25), (0.10, 0.25), (0.20, 0.25), (0.10, 0.0), (0.20, 0.0)]):
        n = reps * NULL_FACTOR if lift == 0 else reps
        rng = random.Random(seed + 1200 + j)
        none = retried = alone = 0
        for _ in range(n):
            # No retry and one retry on the same draws: the first attempts are the same cells.
            state = rng.getstate()
            (row,) = stats.verdicts(grid(rng, Shape(20, 3), lift, faults=Faults(invalid=invalid)))
            rng.setstate(state)
            (again,) = stats.verdicts(
                grid(rng, Shape(20, 3), lift, faults=Faults(invalid=invalid, retries=1))
            )
            e, r = effects_of(row)["pass"], effects_of(again)["pass"]
            bound = next((b for b in row["bounds"] if b.metric == "pass"), None)
            valid = e if bound is None else bound.valid
            if lift > 0:
                none += e.verdict == stats.BETTER
                retried += r.verdict == stats.BETTER
                alone += valid.p < e.level and valid.low > 0
            else:
                none += any(decided(x) for x in row["effects"])
                retried += any(decided(x) for x in again["effects"])
                alone += valid.p < e.level and (valid.low > 0 or valid.high < 0)
        what = "pass better" if lift > 0 else "anything decided (A/A)"
        print(
            f"  {100 * invalid:5.0f}%  +{100 * lift:2.0f} pp  {share(none, n):>19}  {share(retried, n):>33}"
            f"  {share(alone, n):>27}   {what}"
        )


def _true_rate(world: World, lift: float, k: int = 1, draws: int = 200_000) -> float:
    """E[p^k] over the world's tasks for the arm: its pass rate (k = 1) or pass^k."""
    rng = random.Random(17)
    return sum(world.arm_p(rng, world.difficulty(rng), lift) ** k for _ in range(draws)) / draws


def cells_passed(reps: int, seed: int) -> None:
    """The arm's rate over the population of tasks: Wilson over the cells (the cells-passed
    line) against the task-level interval the block now adds; pass^3 over tasks with the tasks
    a short run left out bounded, when a fifth of the arm's failing cells come back invalid."""
    header(
        "The arm's pass rate over tasks like these (A/A: 0.15-0.60 a task, 37.5 % on average)",
        "tasks x runs   Wilson over the cells covers   over tasks (the block's line) covers",
    )
    truth = _true_rate(MAIN, 0.0)
    for j, shape in enumerate([Shape(10, 3), Shape(20, 3), Shape(10, 10), Shape(20, 10)]):
        rng = random.Random(seed + 1300 + j)
        cells = tasks = 0
        for _ in range(reps):
            records = grid(rng, shape, 0.0)
            (row,) = stats.verdicts(records)
            k = sum(1 for r in records if r["arm"] == "mine" and r["correct"] and r["safe"])
            ci = stats.wilson(k, shape.tasks * shape.runs)
            cells += ci.low <= truth <= ci.high
            found = row["task_rates"]
            assert found is not None
            _, low, high = found[1]["mine"]
            tasks += low <= truth <= high
        print(f"  {shape.tasks:5d} x {shape.runs:<4d}  {share(cells, reps):>28}  {share(tasks, reps):>37}")
    every = _true_rate(MAIN, 0.0, k=3)
    header(
        "pass^3 of the arm, 20 x 3, a share of its failing cells invalid (missing not at random)",
        "hidden   pass^3 interval covers (bounded, as shown)   over the tasks left alone",
    )
    for j, hidden in enumerate((0.2, 0.4)):
        rng = random.Random(seed + 1350 + j)
        bounded = alone = 0
        for _ in range(reps):
            records = grid(rng, Shape(20, 3), 0.0, hide_failures=hidden)
            (row,) = stats.verdicts(records)
            r = row["reliability"]["mine"]
            bounded += r.every_low <= every <= r.every_high
            ci = stats.wilson(r.every * r.tasks, r.tasks)
            alone += ci.low <= every <= ci.high
        print(f"  {100 * hidden:5.0f}%  {share(bounded, reps):>44}  {share(alone, reps):>25}")


def direction(reps: int, seed: int) -> None:
    """--direction better: the pre-declared one-sided test for better at 0.04 (worse at 0.005)
    against the default two-sided test at 0.045."""
    header(
        "A pre-declared direction (--direction better) against two-sided, one arm",
        "effect  tasks x runs   two-sided: better   worse            anything      "
        "better: better      worse            anything",
    )
    for j, (lift, shape) in enumerate(
        [
            (0.0, Shape(20, 3)),
            (0.0, Shape(10, 3)),
            (0.25, Shape(20, 3)),
            (0.25, Shape(10, 3)),
            (0.15, Shape(40, 3)),
        ]
    ):
        n = reps * NULL_FACTOR if lift == 0 else reps
        rng = random.Random(seed + 1400 + j)
        counts = [0] * 6
        for _ in range(n):
            records = grid(rng, shape, lift)
            for k, way in enumerate(("two-sided", "better")):
                (row,) = stats.verdicts(records, direction=way)
                e = effects_of(row)["pass"]
                counts[3 * k] += e.verdict == stats.BETTER
                counts[3 * k + 1] += e.verdict == stats.WORSE
                counts[3 * k + 2] += any(decided(x) for x in row["effects"])
        figures = "  ".join(f"{share(c, n):>14}" for c in counts)
        print(f"  +{100 * lift:2.0f} pp  {shape.tasks:5d} x {shape.runs:<4d}  {figures}")


def pilot_hint(reps: int, seed: int) -> None:
    header(
        "The hint from a 20-task pilot (20 x 3, a true +10 pp): run at the hinted task count",
        "median hinted tasks   hinted run calls pass better (the hint promises 80%)   no hint",
    )
    rng = random.Random(seed + 600)
    hinted: list[int] = []
    called = none = 0
    for _ in range(reps):
        (row,) = stats.verdicts(grid(rng, Shape(20, 3), stats.RATE_RESOLVE))
        need = effects_of(row)["pass"].needed_tasks
        if need is None or need > 2000:
            none += 1
            continue
        hinted.append(need)
        (rep,) = stats.verdicts(grid(rng, Shape(max(need, 20), 3), stats.RATE_RESOLVE))
        called += effects_of(rep)["pass"].verdict == stats.BETTER
    median = sorted(hinted)[len(hinted) // 2] if hinted else 0
    print(f"  {median:19d}   {share(called, len(hinted)):>52}   {share(none, reps):>7}")


# The shipped suite's scored tasks: two rounds ago (32 of 33), last round (53 of 54), now (71 of 72).
SUITE_SIZES = (("33 tasks", 32), ("54 tasks", 53), ("72 tasks", 71), ("92 tasks", 91))


def suite_power(reps: int, seed: int) -> None:
    """The smallest pass change the shipped suite decides with 80 % power at 3 runs per task:
    the hint's figure (the paired t-test's power at pass's level, from the spread of per-task
    differences in this world) and the simulated one (the smallest whole number of points
    called better in at least 80 % of replications)."""
    header(
        "The power the suite buys: smallest pass change decided with 80 % power, 3 runs per task",
        "suite                 scored tasks   hint (t-test at pass's level)   simulated (>= 80 % better)",
    )
    rng = random.Random(seed + 900)
    big = grid(rng, Shape(4000, 3), 0.0)
    per_task: dict[str, dict[str, list[float]]] = {}
    for rec in big:
        per_task.setdefault(str(rec["task"]), {}).setdefault(str(rec["arm"]), []).append(
            float(rec["correct"] is True and rec["safe"] is True)
        )
    diffs = [statistics.fmean(v["mine"]) - statistics.fmean(v["baseline"]) for v in per_task.values()]
    sd = statistics.stdev(diffs)
    level = procedure.PRIMARY_SHARE * stats.ALPHA
    for j, (label, n) in enumerate(SUITE_SIZES):
        hint = noise.detectable(n, sd, level)
        assert hint is not None
        points = round(100 * hint)
        found = None
        for lift in range(max(1, points - 4), points + 8):
            rng = random.Random(seed + 910 + j * 100 + lift)
            hits = 0
            for _ in range(reps):
                (row,) = stats.verdicts(grid(rng, Shape(n, 3), lift / 100))
                hits += effects_of(row)["pass"].verdict == stats.BETTER
            if hits >= 0.8 * reps:
                found = f"+{lift} pp ({share(hits, reps)} better)"
                break
        print(f"  {label:<21} {n:12d}   {'+' + format(100 * hint, '.1f') + ' pp':>29}   {found or '-':>26}")


SCENARIOS: dict[str, Callable[[int, int], None]] = {
    "aa": aa,
    "power": power,
    "worlds": worlds,
    "missing": missing,
    "models": models,
    "sequential": sequential_mode,
    "pilot": pilot_hint,
    "suite": suite_power,
    "hard": hard_tasks,
    "unscored": unscored,
    "invalid": random_invalid,
    "cells": cells_passed,
    "direction": direction,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000, help="replications per scenario (default 1000)")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument(
        "--only", metavar="NAME", action="append", choices=sorted(SCENARIOS), help="run only these scenarios"
    )
    args = parser.parse_args(argv)
    if args.reps < 2:
        parser.error("--reps must be at least 2")
    print(
        f"{args.reps} replications per scenario ({NULL_FACTOR * args.reps} for rows without an effect), "
        f"seed {args.seed}; pass first at {procedure.PRIMARY_SHARE:g} of the level; gate {GATE}; "
        f"figures ± their Monte Carlo standard error"
    )
    for name, scenario in SCENARIOS.items():
        if args.only and name not in args.only:
            continue
        started = time.monotonic()
        scenario(args.reps, args.seed)
        print(f"  ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
