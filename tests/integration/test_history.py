"""Results over time through the real CLI: five offline runs of a few quick tasks with
offline-coin, an arm whose directive makes it better, then worse (good=0.5, 0.9, 0.9, 0.9,
0.1). The truth is known cell by cell (the coin is drawn from the cell id), so `ponybench
history` must show exactly that trend, name the regression and the flaky tasks, and its gate
must fail on the last run; each session's end appends the run's line to runs/history.jsonl, and
the last run's report shows the trend in Chromium, as does `ponybench report --history`."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_ponybench.offline import coin
from pytest_ponybench.store import history
from tests.support import REPO, run_dirs

pytestmark = pytest.mark.needs_claude

TASKS = ["sql_lookup", "merge_intervals", "parse_duration", "luhn_check", "reset_token"]
GOOD = [0.5, 0.9, 0.9, 0.9, 0.1]  # the arm gets better, stays, then gets worse
RUNS = 2
MODEL = "offline-coin"


def passes(arm: str, good: float, task: str) -> str:
    return "".join("1" if coin.draws_good(f"{task}-{arm}-{MODEL}-r{r}", good) else "0" for r in range(RUNS))


@pytest.fixture(scope="module")
def series(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project after its five runs (each a session of its own, a second apart)."""
    root = tmp_path_factory.mktemp("history-project")
    bench = root / "benchmarks"
    (bench / "tasks").mkdir(parents=True)
    for task in TASKS:
        subprocess.run(
            ["cp", "-r", str(REPO / "benchmarks" / "tasks" / task), str(bench / "tasks")], check=True
        )
    (bench / "test_cells.py").write_text((REPO / "benchmarks" / "test_cells.py").read_text())
    subprocess.run(["cp", "-r", str(REPO / "fixtures"), str(root)], check=True)
    (root / "pyproject.toml").write_text(
        '[tool.ponybench]\nout = "runs"\n\n[tool.ponybench.arms]\nbaseline = {}\n'
    )
    for good in GOOD:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "benchmarks", "-n", "2", "--models", MODEL, "--runs", str(RUNS)]
            + ["--arm", f"mine=prompt:ponybench-offline: good={good}", "-p", "no:cacheprovider"],
            cwd=root,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=600,
        )
        assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    return root


def ponybench(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_ponybench.cli", *argv],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_each_session_appended_its_line_and_history_shows_the_trend(series: Path) -> None:
    runs = run_dirs(series)
    lines = (series / "runs" / history.INDEX).read_text().splitlines()
    assert [json.loads(line)["run"] for line in lines] == [r.name for r in runs]  # one per session, in order
    done = ponybench(series, "history")
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    # One series per arm (the arm's prompt changed three times: versions, not breaks).
    assert "== baseline on offline-coin, series 1: 5 run(s)" in out
    assert "== mine on offline-coin, series 1: 5 run(s)" in out and "series 2" not in out
    assert out.count("at ") >= 2 and "arm mine changed (hash" in out
    for run, good in zip(runs, GOOD, strict=True):
        passed = sum(passes("mine", good, t).count("1") for t in TASKS)
        assert f"   {run.name:<28} {passed}/{len(TASKS) * RUNS} " in out, (run.name, out)
    # The regression at the last change of directive, task by task, as the coins fell.
    last, before = runs[-1].name, runs[-2].name
    for task in TASKS:
        was, now = passes("mine", 0.9, task), passes("mine", 0.1, task)
        if now.count("1") < was.count("1"):
            assert f"regressed {task}: {was.count('1')}/{RUNS} → {now.count('1')}/{RUNS}" in out
            assert f"{before} → {last}" in out
    # Flaky: the baseline's tasks whose two cells disagree (the same in every run).
    flaky = [t for t in TASKS if passes("baseline", coin.DEFAULT_GOOD, t) in ("01", "10")]
    assert flaky, "the coins give this suite no flaky baseline task; pick other tasks"
    for task in flaky:
        assert f"flaky: {task}: passed 5 of 10 valid cells over 5 run(s) at arm hash" in out
    assert f"{last} against {before}:" in out and "offline-coin, arm mine: worse" in out


def test_the_gate_fails_on_the_regression_against_the_last_run_and_the_window(series: Path) -> None:
    done = ponybench(series, "history", "runs", "--fail-on", "pass:-10pp")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL pass:-10pp:" in done.stdout and "(offline-coin, arm mine)" in done.stdout
    done = ponybench(series, "history", "runs", "--fail-on", "pass:-10pp", "--window", "3", "--markdown")
    assert done.returncode == 1 and "vs last 3 runs (offline-coin, arm mine)" in done.stdout
    assert "**Gate failed:** `pass:-10pp`" in done.stdout
    # The run before the drop is no regression of the one before it.
    runs = [str(r) for r in run_dirs(series)]
    done = ponybench(series, "history", *runs[:4], "--fail-on", "pass:-10pp")
    assert done.returncode == 0 and "gate passed: pass:-10pp" in done.stdout, done.stdout


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[object]:
    from tests.browser import chromium  # skips without selenium

    with chromium(tmp_path) as driver:
        yield driver


def test_the_report_shows_the_trend_in_chromium(series: Path, browser: object, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver

    from tests.browser import open_page, shot

    assert isinstance(browser, WebDriver)
    runs = run_dirs(series)
    open_page(browser, runs[-1] / "report.html")
    section = browser.find_element(By.ID, "trend")
    assert section.is_displayed() and "Over time" in section.text
    mine = section.find_element(By.CSS_SELECTOR, '.series[data-arm="mine"]')
    assert mine.find_element(By.CSS_SELECTOR, "svg.sparkline").is_displayed()
    rows = mine.find_elements(By.CSS_SELECTOR, "table.trend tbody tr")
    assert [r.find_element(By.TAG_NAME, "td").text for r in rows] == [r.name for r in runs]
    assert "current" in (rows[-1].get_attribute("class") or "")
    assert "regressed" in mine.find_element(By.CSS_SELECTOR, "ul.moves").text
    browser.execute_script("arguments[0].scrollIntoView()", section)
    shot(browser, tmp_path, "trend-section")
    # The first run had no earlier run: its report has no trend section.
    open_page(browser, runs[0] / "report.html")
    assert not browser.find_elements(By.ID, "trend")

    done = ponybench(series, "report", "--history", "runs")
    assert done.returncode == 0, done.stderr
    browser.get((series / "runs" / "history.html").as_uri())
    blocks = browser.find_elements(By.CSS_SELECTOR, "#trend .series")
    assert [b.get_attribute("data-arm") for b in blocks] == ["baseline", "mine"]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#runs tbody tr")) == 5
    shot(browser, tmp_path, "history-page")
