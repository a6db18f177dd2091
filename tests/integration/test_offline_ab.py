"""The offline A/B end to end: offline-coin through the real CLI, a plugin arm that carries its
directive in a SessionStart hook, the verdict the run prints. The truth is known: the careful
arm writes the good reference with probability 0.9, the baseline with 0.5, so pass moves by
+40 points; two arms with the same directive differ by nothing."""

from __future__ import annotations

import json
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


def test_until_decided_stops_early_with_the_right_verdict_and_resume_keeps_the_design(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    """+40 points over the quick tasks: the sequential design decides before its 6 runs, the
    cells it did not need are skipped (not missing), run.json carries the plan and the looks,
    and a resume of the finished run runs nothing and says the same."""
    root = bench_project(tasks=QUICK)
    args = ["benchmarks", "-n", "2", "--models", "offline-coin", "--arm", f"careful=plugin:{CAREFUL}"]
    result = pytester.runpytest_subprocess(*args, "--until-decided", "--max-runs", "6")
    out = result.stdout.str()
    assert result.ret == pytest.ExitCode.TESTS_FAILED or result.ret == pytest.ExitCode.OK, out[-3000:]
    run_dir = run_dirs(root)[0]
    run = json.loads((run_dir / "run.json").read_text())
    looks = run["sequential"]["looks"]
    assert run["sequential"]["plan"]["max_runs"] == 6
    assert looks[-1]["outcomes"] == {"offline-coin/careful": "better"}, looks
    stopped_at = looks[-1]["runs"]
    assert stopped_at < 6 and [lk["number"] for lk in looks] == list(range(1, len(looks) + 1))
    recs = records(run_dir)
    assert len(recs) < 6 * 2 * len(QUICK)
    assert {r["run"] for r in recs} <= set(range(stopped_at + 1))  # at most one run past the stop
    _, low, high, word = effect_line(out, "pass")
    assert word == "better" and low <= 40.0 <= high, out
    assert (
        f"look {len(looks)} of at most 6, at {stopped_at} run(s) per task: offline-coin/careful better" in out
    )
    assert "cell(s) not needed (decided early)" in out and "missing" not in out.split("ponybench summary")[-1]
    again = pytester.runpytest_subprocess("benchmarks", "-n", "2", "--resume", str(run_dir))
    assert len(records(run_dir)) == len(recs), "a decided run needs no more cells"
    assert effect_line(again.stdout.str(), "pass")[3] == "better"


def test_a_resume_that_would_change_the_design_is_refused(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=QUICK[:2])
    args = ["benchmarks", "--models", "offline-coin", "--arm", f"careful=plugin:{CAREFUL}"]
    pytester.runpytest_subprocess(*args, "--until-decided", "--max-runs", "2")
    run_dir = run_dirs(root)[0]
    run = json.loads((run_dir / "run.json").read_text())
    run["sequential"]["plan"]["spending"] = "obrien-fleming"
    (run_dir / "run.json").write_text(json.dumps(run))
    (run_dir / "stopped.json").unlink(missing_ok=True)
    result = pytester.runpytest_subprocess("benchmarks", "--resume", str(run_dir))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--resume: the run's sequential design*differs from this one's*"])
