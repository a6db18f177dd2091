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
differ from task to task, tasks stuck at the floor or the ceiling, invalid cells that hide
failures, several models, a run that looks after every block of runs, a hint taken from a pilot.
"""

from __future__ import annotations

import argparse
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


def grid(
    rng: random.Random,
    shape: Shape,
    lift: float,
    *,
    world: World = MAIN,
    models: Sequence[str] = ("sim",),
    hide_failures: float = 0.0,
) -> list[Record]:
    """One replication: baseline and `mine` on every task and run of every model (each model
    with tasks of its own); `mine` gains `lift`. `hide_failures`: the share of the arm's failing
    cells that come back invalid (missing not at random: timeouts on what it cannot do)."""
    records = []
    for model in models:
        for t in range(shape.tasks):
            task = _task_world(rng, world)
            p_arm = world.arm_p(rng, task["p"], lift)
            for r in range(shape.runs):
                records.append(_cell(rng, task, task["p"], "baseline", t, r, model))
                cell = _cell(rng, task, p_arm, "mine", t, r, model)
                if hide_failures and not (cell["correct"] and cell["safe"]) and rng.random() < hide_failures:
                    cell.update({"valid": False, "error": "timed out (simulated)"})
                records.append(cell)
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
        anything = better = worse = cov = 0
        for _ in range(n):
            (row,) = stats.verdicts(grid(rng, Shape(20, 3), lift, world=world))
            e = effects_of(row)["pass"]
            anything += any(decided(x) for x in row["effects"])
            better += e.verdict == stats.BETTER
            worse += e.verdict == stats.WORSE
            cov += covers(e, 100 * truth)
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


def _sequential_rep(
    rng: random.Random, lift: float, plan: sequential.Plan, tasks: int
) -> tuple[str, int, list[bool], list[bool]]:
    """One sequential run: its final outcome, the runs per task it spent, and for comparison
    the fixed design's pass verdict at every run count (better / anything decided)."""
    records = grid(rng, Shape(tasks, plan.max_runs), lift)
    looks: list[sequential.Look] = []
    outcome = sequential.CONTINUE
    spent = plan.max_runs
    for runs in range(plan.block_runs, plan.max_runs + 1, plan.block_runs):
        upto = [r for r in records if r["run"] < runs]
        step = sequential.decide(upto, plan, looks, runs=runs)
        looks.append(step.look)
        outcome = step.decisions[0].outcome
        if step.done:
            spent = runs
            break
    fixed_better, fixed_any = [], []
    for runs in range(1, plan.max_runs + 1):
        (row,) = stats.verdicts([r for r in records if r["run"] < runs])
        e = effects_of(row)["pass"]
        fixed_better.append(e.verdict == stats.BETTER)
        fixed_any.append(e.verdict != stats.UNDECIDED)
    return outcome, spent, fixed_better, fixed_any


def sequential_mode(reps: int, seed: int) -> None:
    header(
        "Sequential (--until-decided), 20 tasks, a look after every run, Pocock-type spending",
        "effect  max runs   false verdict      pass better       negligible        mean runs   "
        "fixed design of equal power   spend vs it",
    )
    for j, (lift, max_runs) in enumerate([(0.0, 3), (0.0, 6), (0.40, 3), (0.25, 6)]):
        n = reps * NULL_FACTOR if lift == 0 else reps
        rng = random.Random(seed + 500 + j)
        plan = sequential.Plan(max_runs=max_runs)
        outcomes: list[str] = []
        spent: list[float] = []
        fixed: list[list[bool]] = []
        naive = once = 0
        for _ in range(n):
            outcome, runs, fixed_better, fixed_any = _sequential_rep(rng, lift, plan, 20)
            outcomes.append(outcome)
            spent.append(runs)
            fixed.append(fixed_better)
            naive += any(fixed_any)
            once += fixed_any[-1]
        # No effect: better or worse is false (negligible is true). An effect beyond the margin:
        # worse or negligible is false.
        wrong = (
            (sequential.BETTER, sequential.WORSE) if lift == 0 else (sequential.WORSE, sequential.NEGLIGIBLE)
        )
        false = sum(o in wrong for o in outcomes)
        better = sum(o == sequential.BETTER for o in outcomes)
        negligible = sum(o == sequential.NEGLIGIBLE for o in outcomes)
        m, se = mean_se(spent)
        equal = "-"
        ratio = "-"
        if lift > 0:
            seq_power = better / n
            powers = [sum(f[r] for f in fixed) / n for r in range(max_runs)]
            need = next((r + 1 for r, pw in enumerate(powers) if pw >= seq_power), None)
            if need is not None:
                equal = f"{need} runs ({100 * powers[need - 1]:.1f}% power)"
                ratio = f"{100 * m / need:5.1f}% ± {100 * se / need:.1f}"
            else:
                equal = f"more than {max_runs} runs"
        print(
            f"  +{100 * lift:2.0f} pp  {max_runs:8d}  {share(false, n):>14}  {share(better, n):>16}"
            f"  {share(negligible, n):>16}  {m:5.2f} ± {se:.2f}  {equal:>27}  {ratio:>12}"
        )
        if lift == 0:
            print(
                f"           rerunning the fixed design after every run until it decides: "
                f"{share(naive, n)} false verdicts; looking once, at {max_runs} runs: {share(once, n)}"
            )


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


# The shipped suite's scored tasks before this round's tasks (32 of 33) and after (53 of 54).
SUITE_SIZES = (("before: 33 tasks", 32), ("after: 54 tasks", 53))


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
