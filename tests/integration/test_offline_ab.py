"""The offline A/B end to end: offline-coin through the real CLI, a plugin arm that carries its
directive in a SessionStart hook, the verdict the run prints. The truth is known: the careful
arm writes the good reference with probability 0.9, the baseline with 0.5, so pass moves by
+40 points; two arms with the same directive differ by nothing."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_ponybench.core.records import loaded, passed
from pytest_ponybench.offline import coin
from tests.support import REPO, records, run_dirs

pytestmark = pytest.mark.needs_claude

QUICK = ["sql_lookup", "merge_intervals", "parse_duration", "reset_token", "open_redirect", "luhn_check"]
CAREFUL = REPO / "examples" / "careful-plugin"
NUM = r"([+-]\d+\.\d)"


def effect_line(out: str, metric: str) -> tuple[float, float, float, str]:
    m = re.search(rf"^  {metric} +{NUM} pp +\[{NUM}, {NUM}\] pp +(\w+)", out, re.M)
    assert m is not None, f"no {metric} line in:\n{out}"
    return float(m[1]), float(m[2]), float(m[3]), m[4]


def test_a_known_effect_is_found_and_its_interval_holds_the_truth(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=QUICK)
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-coin",
        "--runs",
        "3",
        "--arm",
        f"careful=plugin:{CAREFUL}",
    )
    out = result.stdout.str()
    estimate, low, high, word = effect_line(out, "pass")
    assert word == "better", out
    assert low <= 40.0 <= high, out
    assert "Decided: pass better" in out
    recs = records(run_dirs(root)[0])
    assert len(recs) == 36 and all(r["valid"] for r in recs)
    for rec in recs:
        # Each cell's outcome is its coin: the directive reached the model (0.9) or none did (0.5),
        # and the draw comes from the cell id alone, so a rerun writes the same files.
        good = 0.9 if rec["arm"] == "careful" else coin.DEFAULT_GOOD
        assert passed(loaded(rec)) == coin.draws_good(rec["cell_id"], good), rec["cell_id"]
        # The model invoked the plugin's skill when it was offered, and only then.
        used = ["careful:careful-review"] if rec["arm"] == "careful" else []
        assert (rec["skills_available"], rec["skills_used"]) == (used, used), rec["cell_id"]
    # The summary's skill column: every careful cell used its skill; the baseline has none.
    result.stdout.re_match_lines([r"^  baseline +18 +18 .* -$", r"^  careful +18 +18 .* 100%$"])


def test_an_a_a_run_decides_nothing(pytester: pytest.Pytester, bench_project: Callable[..., Path]) -> None:
    directive = "ponybench-offline: good=0.7"
    root = bench_project(
        tasks=QUICK, arms=f'first = {{ prompt = "{directive}" }}\nsecond = {{ prompt = "{directive}" }}\n'
    )
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-coin", "--runs", "3", "--arms", "first,second"
    )
    run = run_dirs(root)[0]
    recs = records(run)
    assert len(recs) == 36 and all(r["valid"] for r in recs), result.stdout.str()
    for rec in recs:
        assert passed(loaded(rec)) == coin.draws_good(rec["cell_id"], 0.7), rec["cell_id"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest_ponybench.cli", "compare", str(run), "--baseline", "first"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    _estimate, low, high, word = effect_line(out, "pass")
    assert word == "undecided" and low <= 0.0 <= high, out
    decided = re.search(r"^  Decided: (.*)$", out, re.M)
    assert decided is not None, out
    # pass, loc, cost and tokens follow the coins, so this outcome is fixed; time is the CLI's
    # wall clock, whose false-verdict rate is what scripts/simulate_verdicts.py measures.
    for metric in ("pass", "loc", "cost", "tokens"):
        assert not decided[1].startswith(f"{metric} ") and f", {metric} " not in decided[1], out
