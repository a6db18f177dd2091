"""The verdict rule's power and honesty, by simulation through `stats.verdicts` (fixed seeds).

The hint promises 80 % power at the metric's level in the procedure: at the hinted task count a real
10-point effect must be called better about that often. And a small run of the simulation
script prints figures in the ranges docs/verdicts.md states."""

from __future__ import annotations

import importlib.util
import math
import random
import re
import sys
from types import ModuleType

import pytest

from pytest_ponybench.analysis import stats
from pytest_ponybench.analysis.stats.power import needed_tasks
from pytest_ponybench.core.records import Record
from tests.support import REPO


def simulation() -> ModuleType:
    path = REPO / "scripts" / "simulate_verdicts.py"
    spec = importlib.util.spec_from_file_location("simulate_verdicts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_hinted_task_count_gives_about_80_percent_power() -> None:
    sim = simulation()
    lift = stats.RATE_RESOLVE  # the hint's own 10-point effect
    pilot = sim.grid(random.Random(7), sim.Shape(80, 3), lift)
    (row,) = stats.verdicts(pilot)
    (pass_effect,) = [e for e in row["effects"] if e.metric == "pass"]
    hinted = pass_effect.needed_tasks
    assert hinted is not None and 40 < hinted < 400, hinted
    assert pass_effect.level == pytest.approx(0.05 * 0.9)  # pass first, at 0.9 of the level
    rng = random.Random(11)
    reps = 120
    called = 0
    for _ in range(reps):
        (rep,) = stats.verdicts(sim.grid(rng, sim.Shape(hinted, 3), lift))
        called += next(e for e in rep["effects"] if e.metric == "pass").verdict == stats.BETTER
    assert 0.70 <= called / reps <= 0.90, (hinted, called)


def coin_grid(rng: random.Random, tasks: int, runs: int, lift: float) -> list[Record]:
    """Every task passes half the time in the baseline: all the spread is run noise."""
    out: list[Record] = []
    for t in range(tasks):
        for r in range(runs):
            for arm, p in (("baseline", 0.5), ("mine", 0.5 + lift)):
                ok = rng.random() < p
                out.append({"task": f"t{t}", "arm": arm, "model": "m", "run": r, "correct": ok, "safe": True})
    return out


def test_runs_per_task_are_hinted_when_run_noise_is_the_spread() -> None:
    lift = stats.RATE_RESOLVE
    (row,) = stats.verdicts(coin_grid(random.Random(5), 30, 2, lift))
    (pass_effect,) = [e for e in row["effects"] if e.metric == "pass"]
    runs = pass_effect.needed_runs
    assert runs is not None and 5 < runs <= stats.MAX_HINT_RUNS, pass_effect
    rng = random.Random(9)
    reps = 60
    called = 0
    for _ in range(reps):
        (rep,) = stats.verdicts(coin_grid(rng, 30, runs, lift))
        # Only pass moves here, so the family is pass alone: the hint's level was alpha / 1.
        called += next(e for e in rep["effects"] if e.metric == "pass").verdict == stats.BETTER
    assert 0.65 <= called / reps <= 0.95, (runs, called)


FIGURE = r"\s+([\d.]+)% ± ([\d.]+)"


def test_a_small_run_of_the_simulation_script(capsys: pytest.CaptureFixture[str]) -> None:
    sim = simulation()
    assert sim.main(["--reps", "40", "--seed", "5", "--only", "aa", "--only", "power"]) == 0
    out = capsys.readouterr().out
    aa = re.findall(rf"^\s+(\d+) x (\d+){FIGURE * 6}$", out, re.M)
    assert len(aa) == 5, out
    for row in aa:
        decided, _, before, _, gate, _, cover_pass, _, cover_loc, se_loc, alone, _ = map(float, row[2:])
        assert decided <= 15.0 and before <= 15.0 and gate <= 10.0 and alone <= 15.0, out  # loose
        assert cover_pass >= 80.0 and cover_loc >= 80.0, out
        # Every figure carries its Monte Carlo standard error: sqrt(p (1 - p) / n), n = 4 x 40
        # for the rows without an effect.
        assert se_loc == pytest.approx(100 * (cover_loc / 100 * (1 - cover_loc / 100) / 160) ** 0.5, abs=0.06)
    power = re.findall(rf"^\s+\+(\d+) pp\s+(\d+) x (\d+){FIGURE * 4}(?:   \(tasks .*\))?$", out, re.M)
    assert len(power) == 5, out
    now, before = float(power[0][3]), float(power[0][5])
    assert now >= 50.0 and now >= before, out  # +25 pp over 20 x 3: pass first beats Holm over 5
    assert "Sequential" not in out  # --only ran only what was asked


def test_the_new_scenarios_run_and_an_unscored_baseline_is_never_better(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sim = simulation()
    assert sim.main(["--reps", "10", "--seed", "5", "--only", "unscored", "--only", "invalid"]) == 0
    out = capsys.readouterr().out
    every = re.search(rf"^  every baseline cell\s+\+ 0 pp{FIGURE}", out, re.M)
    assert every is not None and float(every[1]) == 0.0, out
    retried = re.findall(rf"^\s+(\d+)%  \+25 pp{FIGURE * 3}", out, re.M)
    assert len(retried) == 3, out
    # The same first attempts, retried once at the end: the bound has fewer cells to veto, so
    # over the three shares of invalid cells the retried runs call +25 points better more often.
    assert sum(float(r[3]) for r in retried) > sum(float(r[1]) for r in retried), out


# --- the hint's oracles (scipy and statsmodels, throwaway venv, by the call next to each) ---------


@pytest.mark.parametrize(
    ("sd", "delta", "expected"),
    [
        # ceil(statsmodels TTestPower().solve_power(effect_size=delta / sd, alpha=0.05,
        # power=0.8)) on 2026-11-29: 33.37, 72.58, 198.15, 10.72, 55.95
        (0.2, 0.1, 34),
        (0.3, 0.1, 73),
        (0.5, 0.1, 199),
        (0.1, math.log(1.1), 11),
        (0.25, math.log(1.1), 56),
    ],
)
def test_needed_tasks_oracle(sd: float, delta: float, expected: int) -> None:
    assert needed_tasks(sd, delta) == expected


@pytest.mark.parametrize(
    ("sd", "delta", "alpha", "expected"),
    [
        # smallest n with scipy.stats.nct power of the two-sided t-test >= 0.8, 2026-11-30:
        # the Holm level of a family of five tests is 0.01.
        (0.3, 0.1, 0.01, 109),
        (0.25, math.log(1.1), 0.01, 84),
        (0.05, 0.1, 0.01, 7),
    ],
)
def test_needed_tasks_at_the_holm_level(sd: float, delta: float, alpha: float, expected: int) -> None:
    assert needed_tasks(sd, delta, alpha) == expected


def test_needed_tasks_floor() -> None:
    # Zero spread: the sign test's minimum at the level (6 at 5 %, 8 at 1 %).
    assert needed_tasks(0.0, 0.1) == 6
    assert needed_tasks(0.0, 0.1, 0.01) == 8
    # A tiny spread: the t-test needs only a few tasks, and never one.
    few = needed_tasks(0.01, 0.1)
    assert few is not None and 2 <= few <= 4
