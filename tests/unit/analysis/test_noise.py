"""The noise floor: the smallest change a run could decide, computed from its own variance and
measured by an A/A twin; `ponybench noise`."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench.analysis import noise, stats, verdict
from pytest_ponybench.core.records import Record, loaded
from tests.support import REPO


@pytest.mark.parametrize(
    ("n", "level", "expected"),
    [
        # The effect size (delta / sd) at which the exact two-sided paired t-test has 80 % power:
        # brentq over scipy.stats.nct's power, scipy 1.17.1 (throwaway venv), 2026-12-01.
        (20, 0.05, 0.66044165462304),
        (20, 0.045, 0.6726549542528786),
        (40, 0.0125, 0.5501749779471543),
    ],
)
def test_detectable_matches_the_exact_t_power(n: int, level: float, expected: float) -> None:
    # The normal approximation of the noncentral t is within 0.1 % here.
    assert noise.detectable(n, 1.0, level) == pytest.approx(expected, rel=1e-3)
    assert noise.detectable(n, 0.3, level) == pytest.approx(0.3 * expected, rel=1e-3)


def test_detectable_edges() -> None:
    assert noise.detectable(1, 0.3, 0.05) is None  # no spread from one task
    assert noise.detectable(20, math.inf, 0.05) is None
    assert noise.detectable(20, math.nan, 0.05) is None
    assert noise.detectable(20, 0.0, 0.05) == 0.0  # no spread: the sign test decides any change
    assert noise.detectable(4, 0.0, 0.05) is None  # ... but not on 4 tasks
    assert noise.shown("ratio", math.log(1.1)) == pytest.approx(10.0)
    assert noise.shown("ratio", 800.0) == math.inf


def test_run_to_run_noise_by_hand() -> None:
    # Two tasks of 3 runs, each with variance 1/3 between runs: an A/A of two such arms differs
    # per task with sd sqrt(2 * (1/3) / 3).
    sd, runs = noise.run_to_run_sd({"a": [1.0, 0.0, 1.0], "b": [0.0, 0.0, 1.0]}) or (0.0, 0.0)
    assert sd == pytest.approx(math.sqrt(2 / 9)) and runs == 3
    assert noise.run_to_run_sd({"a": [1.0], "b": [0.0, 1.0]}) is None  # one run: unknown


def cell(task: str, arm: str, run: int, ok: bool, cost: float, arm_hash: str) -> Record:
    return loaded(
        {
            "cell_id": f"{task}-{arm}-sonnet-r{run}",
            "task": task,
            "arm": arm,
            "model": "sonnet",
            "run": run,
            "valid": True,
            "correct": ok,
            "safe": True,
            "cost_usd": cost,
            "total_loc": 40,
            "input_tokens": 1000,
            "output_tokens": 100,
            "duration_ms": 20_000,
            "arm_hash": arm_hash,
        }
    )


def twin_run(seed: int = 4) -> list[Record]:
    rng = random.Random(seed)
    out = []
    for t in range(20):
        p, c0 = rng.uniform(0.2, 0.8), rng.uniform(0.05, 0.5)
        for run in range(3):
            for arm, lift, h in (("baseline", 0.0, "same"), ("twin", 0.0, "same"), ("mine", 0.3, "other")):
                out.append(
                    cell(f"t{t:02d}", arm, run, rng.random() < p + lift, c0 * math.exp(rng.gauss(0, 0.2)), h)
                )
    return out


def test_a_twin_is_its_own_family_and_says_it_is_the_floor() -> None:
    records = twin_run()
    rows = stats.verdicts(records)
    by_arm = {r["arm"]: r for r in rows}
    assert by_arm["twin"]["twin"] and not by_arm["mine"]["twin"]
    # The twin does not take the arm's level: each is a family of one comparison.
    assert by_arm["mine"]["family"].label == "every arm of sonnet"
    assert by_arm["twin"]["family"].label == "this A/A twin alone, twin on sonnet"
    mine_pass = next(e for e in by_arm["mine"]["effects"] if e.metric == "pass")
    assert mine_pass.level == pytest.approx(0.045)
    text = verdict.render_verdicts(records)
    assert (
        "twin vs baseline (sonnet): 20 paired tasks\n  an A/A twin (the baseline's content): its verdict is "
        in text
    )
    # Two runs compared arm by arm are not twins: an unchanged arm is what they ask about.
    rows2, _ = verdict.compare_verdicts(records, records, base_label="a", cand_label="b")
    assert not any(r["twin"] for r in rows2)


def test_floors_from_the_runs_own_variance() -> None:
    records = twin_run()
    found = noise.floors(records)
    sources = [f.source for f in found]
    assert sources == [
        "an A/A from baseline's run-to-run noise",
        "mine vs baseline",
        "twin vs baseline (an A/A twin)",
    ]
    for f in found:
        assert f.tasks == 20 and f.runs == 3
        assert f.pass_pp is not None and 10.0 < f.pass_pp < 60.0, f
        assert f.cost_pct is not None and 1.0 < f.cost_pct < 60.0, f
        assert f.pass_level == pytest.approx(0.045) and f.cost_level == pytest.approx(0.00125)
    # The block's floor line is the comparison's own floor.
    text = verdict.render_verdicts(records)
    mine = found[1]
    assert (
        f"  noise floor (the smallest change decidable here with 80% power at these levels): "
        f"pass ±{mine.pass_pp:.0f} pp, cost ±{mine.cost_pct:.0f}%"
    ) in text


def test_ponybench_noise(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.jsonl").write_text("\n".join(json.dumps(r) for r in twin_run()) + "\n")
    assert cli.main(["noise", str(run)]) == cli.OK
    out = capsys.readouterr().out
    assert out.startswith(f"noise floor of {run}: the smallest true change each source could decide")
    assert "\nsonnet: 20 tasks x 3 runs\n" in out
    assert "  an A/A from baseline's run-to-run noise: pass ±" in out
    assert "(p < 0.045), cost ±" in out
    line = next(x for x in out.splitlines() if x.startswith("  measured by twin, an A/A twin: "))
    assert "pass " in line and " pp [" in line and "cost " in line
    # Without a twin, the note says how to measure the floor instead.
    only = [r for r in twin_run() if r["arm"] != "twin"]
    (run / "results.jsonl").write_text("\n".join(json.dumps(r) for r in only) + "\n")
    assert cli.main(["noise", str(run)]) == cli.OK
    assert "no A/A twin in this run" in capsys.readouterr().err
    assert cli.main(["noise", str(run), "--baseline", "nope"]) == cli.USAGE
    assert cli.main(["noise", str(run), "--primary", "vibes"]) == cli.USAGE
    assert "--primary: unknown metric 'vibes'" in capsys.readouterr().err


def test_the_readme_noise_example_is_real_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "runs" / "20261201-101500"
    run.mkdir(parents=True)
    (run / "results.jsonl").write_text("\n".join(json.dumps(r) for r in twin_run()) + "\n")
    command = "ponybench noise runs/20261201-101500"
    readme = (REPO / "docs" / "verdicts.md").read_text()
    start = readme.index(f"$ {command}\n") + len(command) + 3
    shown = readme[start : readme.index("```", start)]
    monkeypatch.chdir(tmp_path)
    assert cli.main(command.split()[1:]) == cli.OK
    assert capsys.readouterr().out == shown
