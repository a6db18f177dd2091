"""The `ponybench` console script on synthetic run dirs: real processes, real files."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO
from tests.unit._support.rundirs import EFFECT, write_run

RULES = "correct:-5pp,loc:+10%,cost:+20%"


NOISE = {"baseline": (0.5, 1.0, 1.0), "mine": (0.5, 1.0, 1.0)}


def ponybench(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_ponybench.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def metric_line(out: str, metric: str) -> tuple[float, float, float, str]:
    """(estimate, low, high, word) of the first table line of `metric`."""
    num = r"([+-](?:\d+\.\d|inf))"
    m = re.search(rf"^  {metric} +{num}(?: pp|%) +\[{num}%?, {num}%?\](?: pp)? +(\w+)", out, re.M)
    assert m is not None, f"no {metric} line in:\n{out}"
    est, low, high, word = m.groups()
    return float(est), float(low), float(high), word


def test_summary_prints_the_table_and_the_verdict(tmp_path: Path) -> None:
    write_run(tmp_path / "run", EFFECT, seed=1)
    res = ponybench(tmp_path, "summary", "run")
    assert res.returncode == 0, res.stderr
    assert "ALL TASKS (sonnet)" in res.stdout
    assert re.search(r"^  mine +60 +60 ", res.stdout, re.M)
    assert "mine vs baseline (sonnet): 20 paired tasks" in res.stdout
    assert metric_line(res.stdout, "pass")[3] == "better"

    md = ponybench(tmp_path, "summary", "run", "--markdown")
    assert md.returncode == 0, md.stderr
    assert md.stdout.startswith("<details><summary>ponybench summary: run</summary>")
    assert "| metric | change | 95% interval | verdict | tasks | p (adj.) |" in md.stdout


def test_summary_of_one_arm_has_no_verdict(tmp_path: Path) -> None:
    write_run(tmp_path / "run", {"baseline": (0.5, 1.0, 1.0)}, seed=1)
    res = ponybench(tmp_path, "summary", "run")
    assert res.returncode == 0
    assert "ALL TASKS (sonnet)" in res.stdout and "paired tasks" not in res.stdout
    assert "only the arm 'baseline', so no verdict" in res.stderr


def test_within_run_compare_finds_the_effect(tmp_path: Path) -> None:
    write_run(tmp_path / "run", EFFECT, seed=1)
    res = ponybench(tmp_path, "compare", "run")
    assert res.returncode == 0, res.stderr
    est, low, high, word = metric_line(res.stdout, "pass")
    assert word == "better" and low <= 60.0 <= high
    est, low, high, word = metric_line(res.stdout, "loc")
    assert word == "better" and low <= -20.0 <= high
    est, low, high, word = metric_line(res.stdout, "cost")
    assert word == "worse" and low <= 100.0 <= high
    assert "ALL TASKS" not in res.stdout  # compare is the verdict only


def test_two_run_compare_finds_the_change(tmp_path: Path) -> None:
    write_run(tmp_path / "before", {"baseline": (0.5, 1.0, 1.0), "mine": (0.3, 1.0, 1.0)}, seed=2)
    write_run(tmp_path / "after", {"baseline": (0.5, 1.0, 1.0), "mine": (0.9, 1.0, 1.0)}, seed=3)
    res = ponybench(tmp_path, "compare", "before", "after", "--fail-on", "correct:-5pp")
    assert res.returncode == 0, res.stderr
    block = res.stdout.split("after vs before (sonnet, arm mine): 20 paired tasks")[1]
    est, low, high, word = metric_line(block, "pass")
    assert word == "better" and low <= 60.0 <= high
    assert "after vs before (sonnet, arm baseline): 20 paired tasks" in res.stdout
    assert "gate passed: correct:-5pp" in res.stdout

    # The other way round, the candidate lost 60 points of correctness: the gate fails.
    res = ponybench(tmp_path, "compare", "after", "before", "--fail-on", "correct:-5pp")
    assert res.returncode == 1, res.stdout + res.stderr
    assert re.search(
        r"^FAIL correct:-5pp: before vs after \(sonnet, arm mine\): correct -\d+\.\d pp", res.stdout, re.M
    )


def test_noise_is_undecided_and_the_gate_passes(tmp_path: Path) -> None:
    write_run(tmp_path / "run", NOISE, seed=3)
    res = ponybench(tmp_path, "compare", "run", "--fail-on", RULES)
    assert res.returncode == 0, res.stdout + res.stderr
    for metric in ("pass", "loc", "cost", "tokens", "time"):
        assert metric_line(res.stdout, metric)[3] == "undecided"
    for metric in ("correct", "safe"):  # pass's breakdown: shown, not tested on their own
        assert metric_line(res.stdout, metric)[3] == "in"  # "in pass"
    assert "Decided: nothing; pass, the primary: needs about" in res.stdout
    assert "needs about" in res.stdout and "for 80% power on a 10-point difference" in res.stdout
    assert f"gate passed: {RULES}" in res.stdout


def test_a_broken_gate_exits_1_and_names_the_rule(tmp_path: Path) -> None:
    write_run(tmp_path / "run", EFFECT, seed=1)  # cost +100%, loc -20%, correct +60 pp
    res = ponybench(tmp_path, "compare", "run", "--fail-on", RULES)
    assert res.returncode == 1, res.stdout + res.stderr
    fail = [line for line in res.stdout.splitlines() if line.startswith("FAIL ")]
    assert len(fail) == 1, res.stdout
    assert re.fullmatch(
        r"FAIL cost:\+20%: mine vs baseline \(sonnet\): cost \+\d+\.\d% "
        r"\[\+\d+\.\d%, \+\d+\.\d%\], the whole interval is above \+20%",
        fail[0],
    )
    assert res.stdout.rstrip().endswith("gate failed: cost:+20%")

    md = ponybench(tmp_path, "compare", "run", "--fail-on", RULES, "--markdown")
    assert md.returncode == 1
    assert "- **FAIL** cost:+20%: mine vs baseline (sonnet)" in md.stdout
    assert "**Gate failed:** `cost:+20%`" in md.stdout


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        ("cost:+20", "bad gate rule 'cost:+20'"),
        ("speed:+5%", "unknown metric 'speed'"),
        ("correct:-5%", "bad gate rule 'correct:-5%': correct is a rate, use pp"),
    ],
)
def test_a_bad_rule_exits_2_naming_it(tmp_path: Path, rule: str, said: str) -> None:
    write_run(tmp_path / "run", EFFECT, seed=1)
    res = ponybench(tmp_path, "compare", "run", "--fail-on", rule)
    assert res.returncode == 2
    assert said in res.stderr and res.stdout == ""


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    write_run(tmp_path / "run", EFFECT, seed=1)
    (tmp_path / "empty").mkdir()

    res = ponybench(tmp_path, "summary", "missing")
    assert res.returncode == 2 and "missing: no such run dir" in res.stderr
    res = ponybench(tmp_path, "compare", "run", "missing")
    assert res.returncode == 2 and "missing: no such run dir" in res.stderr
    res = ponybench(tmp_path, "summary", "empty")
    assert res.returncode == 2 and "empty: no results.jsonl in it" in res.stderr
    res = ponybench(tmp_path, "compare", "run", "--baseline", "nope")
    assert res.returncode == 2 and "no arm 'nope'" in res.stderr
    assert "arms present: baseline, mine" in res.stderr
    res = ponybench(tmp_path, "compare", "run", "run", "run")
    assert res.returncode == 2 and "one run" in res.stderr
    res = ponybench(tmp_path)
    assert res.returncode == 2 and "usage: ponybench" in res.stderr


def test_two_runs_without_a_shared_task_are_refused(tmp_path: Path) -> None:
    write_run(tmp_path / "a", EFFECT, seed=1)
    other = write_run(tmp_path / "b", EFFECT, seed=2)
    lines = (other / "results.jsonl").read_text().replace('"task": "t', '"task": "other_t')
    (other / "results.jsonl").write_text(lines)
    res = ponybench(tmp_path, "compare", "a", "b")
    assert res.returncode == 2
    assert "the runs share no task: a has t00, " in res.stderr and "b has other_t00" in res.stderr


def test_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", EFFECT, seed=1)
    with open(run / "results.jsonl", "a") as fh:
        fh.write('{"cell_id": "t00-mine-sonnet-r9", "task": "t00", "arm": "mi')
    for args in (["summary", "run"], ["compare", "run"], ["compare", "run", "run"]):
        res = ponybench(tmp_path, *args)
        assert res.returncode == 0, res.stderr
        assert "20 paired tasks" in res.stdout
    assert re.search(r"cells passed: mine \d+/60 ", ponybench(tmp_path, "compare", "run").stdout)


def test_resumed_and_rescored_run_dirs(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", EFFECT, seed=1)
    records = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    # --resume: a failed attempt left an invalid record; the resumed attempt is appended.
    invalid = {**records[0], "valid": False, "correct": False, "error": "API error 529"}
    redo = {**records[0], "attempt": 2}
    with open(run / "results.jsonl", "a") as fh:
        fh.write(json.dumps(invalid) + "\n" + json.dumps(redo) + "\n")
    res = ponybench(tmp_path, "compare", "run")
    assert res.returncode == 0, res.stderr
    assert re.search(r"cells passed: mine \d+/60 .*, baseline \d+/60 ", res.stdout)
    # --rescore: run/rescore-<stamp>/results.jsonl, same record format.
    rescore = run / "rescore-20261130-101500"
    rescore.mkdir()
    shutil.copy(run / "results.jsonl", rescore / "results.jsonl")
    res = ponybench(tmp_path, "compare", "run", str(rescore.relative_to(tmp_path)), "--fail-on", RULES)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "run/rescore-20261130-101500 vs run (sonnet, arm mine)" in res.stdout
    # A folder holding only rescores points at them.
    bare = tmp_path / "bare"
    shutil.copytree(rescore, bare / rescore.name)
    res = ponybench(tmp_path, "summary", "bare")
    assert res.returncode == 2 and "its rescores are run dirs: bare/rescore-20261130-101500" in res.stderr


def test_the_installed_console_script(tmp_path: Path) -> None:
    script = shutil.which("ponybench")
    assert script is not None, "the ponybench script is not on PATH: pip install -e ."
    write_run(tmp_path / "run", EFFECT, seed=1)
    res = subprocess.run(
        [script, "compare", "run", "--fail-on", "cost:+20%"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 1 and "gate failed: cost:+20%" in res.stdout
    res = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.startswith("ponybench ")


def test_the_readme_example_is_real_output(tmp_path: Path) -> None:
    """The worked example in docs/verdicts.md is this command's output on this synthetic run."""
    write_run(
        tmp_path / "runs" / "20261130-101500",
        {"baseline": (0.55, 1.0, 1.0), "mine": (0.80, 0.75, 1.4)},
        seed=1,
    )
    command = "ponybench compare runs/20261130-101500 --fail-on correct:-5pp,loc:+10%,cost:+20%"
    readme = (REPO / "docs" / "verdicts.md").read_text()
    start = readme.index(f"$ {command}\n") + len(command) + 3
    shown = readme[start : readme.index("$ echo $?\n1\n", start)]
    res = ponybench(tmp_path, *command.split()[1:])
    assert res.returncode == 1
    assert res.stdout == shown
