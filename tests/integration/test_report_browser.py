"""The HTML report of a real offline run, opened from file:// in Chromium with the network cut:
the figures are the summary's, every part opens and works, and nothing from a transcript or a
record runs as code.

Debian's chromium and chromium-driver (installed by .ci/run), driven by Selenium. Each test
saves a screenshot under its tmp dir and prints the path.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import UnexpectedAlertPresentException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from tests.browser import chromium, open_overlay, open_page, shot  # noqa: E402  (skips without selenium)
from tests.support import records, run_dirs

pytestmark = pytest.mark.needs_claude

TASKS = ["cart_bogo", "line_count", "merge_intervals", "explain_fixture_scopes"]
ARMS = 'baseline = {}\ntold = { prompt = "Be careful." }\n'
MODELS = "offline-reference,offline-flawed"
INJECTED = '<script>window.__pwned = 1; alert(1)</script></script><img src=x onerror="window.__pwned = 2">'


@pytest.fixture(scope="module")
def offline_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real two-arm offline run (the real claude CLI against the offline server), shared by
    the tests of this module; they only read it, or copy it before changing anything."""
    root = tmp_path_factory.mktemp("report-project")
    bench = root / "benchmarks"
    (bench / "tasks").mkdir(parents=True)
    repo = Path(__file__).resolve().parents[2]
    shutil.copy(repo / "benchmarks" / "test_cells.py", bench / "test_cells.py")
    for task in TASKS:
        shutil.copytree(repo / "benchmarks" / "tasks" / task, bench / "tasks" / task)
    # The check modules the tasks share (task.toml's shared_checks).
    shutil.copytree(repo / "benchmarks" / "tasks" / "_checks", bench / "tasks" / "_checks")
    shutil.copytree(repo / "fixtures", root / "fixtures")
    (root / "pyproject.toml").write_text(f'[tool.ponybench]\nout = "runs"\n\n[tool.ponybench.arms]\n{ARMS}')
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "benchmarks",
            "-n",
            "2",
            "--models",
            MODELS,
            "-p",
            "no:cacheprovider",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    (root / "terminal.txt").write_text(done.stdout)  # what pytest said, beside the project
    (run,) = run_dirs(root)
    return run


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    with chromium(tmp_path) as driver:
        yield driver


def _report(run: Path, *args: str) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_ponybench.cli", "report", str(run), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    page = Path(done.stdout.strip().splitlines()[-1])
    assert page.is_file()
    return page


def _summary_text(run: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_ponybench.cli", "summary", str(run)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _texts(driver: WebDriver, css: str, within: Any = None) -> list[str]:
    return [e.text.strip() for e in (within or driver).find_elements(By.CSS_SELECTOR, css)]


def _console_errors(driver: WebDriver) -> list[dict[str, Any]]:
    logs: list[dict[str, Any]] = driver.get_log("browser")  # type: ignore[attr-defined]  # Chromium only
    return [e for e in logs if e.get("level") == "SEVERE"]


def _terminal_rows(summary: str, title: str) -> list[list[str]]:
    """The rows under a block title of `ponybench summary`, split into columns."""
    lines = summary.splitlines()
    start = lines.index(title)
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("  ") or not line.strip():
            break
        rows.append(line.split())
    return rows


def _verdict_rows(summary: str, title_start: str) -> tuple[list[str], str, list[list[str]]]:
    """The lines before the pass line (procedure, family), the pass line and the metric rows of
    one verdict block of `ponybench summary`."""
    lines = summary.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title_start))
    at = next(i for i in range(start, len(lines)) if lines[i].startswith("  cells passed: "))
    header = [line.strip() for line in lines[start + 1 : at]]
    rows = []
    for line in lines[at + 2 :]:
        if not line.startswith("  ") or line.startswith("  Decided"):
            break
        rows.append(re.split(r"\s{2,}", line.strip()))
    return header, lines[at].strip(), rows


def _footer(summary: str, title_start: str) -> list[str]:
    """The bound, reliability and floor lines of one verdict block: after the undecided
    clauses, before the notes."""
    lines = summary.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title_start))
    at = next(i for i in range(start, len(lines)) if lines[i].startswith("  Undecided:"))
    out = []
    for line in lines[at + 1 :]:
        if line.startswith("    "):
            continue
        if not line.startswith("  ") or line.startswith("  Left out and warnings:"):
            break
        out.append(line.strip())
    return out


def _undecided(summary: str, title_start: str) -> list[str]:
    lines = summary.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title_start))
    at = next(i for i in range(start, len(lines)) if lines[i].startswith("  Undecided:"))
    out = []
    for line in lines[at + 1 :]:
        if not line.startswith("    "):
            break
        out.append(line.strip())
    return out


def test_report_of_a_real_run_shows_the_summary_figures_and_every_part_works(
    offline_run: Path, browser: WebDriver, tmp_path: Path
) -> None:
    run = offline_run
    page = _report(run)
    assert page == run / "report.html"
    summary = json.loads((run / "summary.json").read_text())
    terminal = _summary_text(run)
    cells = {r["cell_id"]: r for r in records(run)}
    open_page(browser, page)

    # Nothing came from anywhere but the file system.
    urls = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert all(u.startswith("file://") for u in urls), urls
    # The page opens on the answer: each arm's verdict per model, the terminal's pass row; both
    # models are scripted offline ones and say so.
    first = browser.find_element(By.CSS_SELECTOR, "main > section")
    assert first.get_attribute("id") == "answer" and first.location["y"] < 200
    cards = first.find_elements(By.CSS_SELECTOR, ".answer-card")
    assert [c.get_attribute("data-model") for c in cards] == ["offline-flawed", "offline-reference"]
    for card in cards:
        model = card.get_attribute("data-model")
        _, _, rows = _verdict_rows(terminal, f"told vs baseline ({model})")
        metric, change, interval, word, tasks, p = rows[0]
        assert card.find_element(By.CSS_SELECTOR, ".headline").text == (
            f"{word} on {metric}: {change}, 95% interval {interval}, {tasks} paired tasks, p {p} (adjusted)"
        )
        assert word in str(card.get_attribute("class")).split()
        assert card.find_element(By.CSS_SELECTOR, ".why").text.startswith("Why: ")
        assert "offline, scripted" in card.find_element(By.CSS_SELECTOR, "h3").text
        assert card.find_element(By.CSS_SELECTOR, ".offline-note").text.startswith("A scripted offline model")
    shot(browser, tmp_path, "report-answer")
    assert "Run" in browser.find_element(By.ID, "run-1").text
    assert "told" in browser.find_element(By.CSS_SELECTOR, "table.arms").text
    assert "Be careful." in browser.find_element(By.CSS_SELECTOR, "table.arms").text

    for section in browser.find_elements(By.CSS_SELECTOR, "section.model"):
        model = section.get_attribute("data-model")
        # The verdict: the terminal's procedure and family, pass line and metric rows, word for word.
        header, pass_line, rows = _verdict_rows(terminal, f"told vs baseline ({model})")
        verdict = section.find_element(By.CSS_SELECTOR, ".verdict")
        assert _texts(browser, "p.procedure", verdict) == header
        assert header[0].startswith("procedure: pass first at p < ") and header[1].startswith("family: ")
        assert verdict.find_element(By.CSS_SELECTOR, ".passline").text == pass_line
        shown = [
            [c for i, c in enumerate(_texts(browser, "td", tr)) if i != 3]  # 3: the drawn interval
            for tr in verdict.find_elements(By.CSS_SELECTOR, "tr.effect")
        ]
        assert shown == rows
        assert verdict.find_elements(By.CSS_SELECTOR, "tr.effect .track .ci")  # intervals drawn
        words = {
            str(tr.get_attribute("class")).split()[-1]
            for tr in verdict.find_elements(By.CSS_SELECTOR, "tr.effect")
        }
        assert words <= {"better", "worse", "undecided", "no-data", "in-pass"} and words
        # What would decide each undecided metric: the terminal's sentences.
        assert _texts(browser, "ul.undecided li", verdict) == _undecided(
            terminal, f"told vs baseline ({model})"
        )
        # The bound, pass^k and the noise floor: the terminal's lines.
        footer = _footer(terminal, f"told vs baseline ({model})")
        assert _texts(browser, "ul.footer li", verdict) == footer
        # The all-tasks table: the terminal's block for this model.
        table = [
            _texts(browser, "td", tr)
            for tr in section.find_elements(By.CSS_SELECTOR, "table.summary tbody tr")
        ]
        assert table == _terminal_rows(terminal, f"ALL TASKS ({model})")
        # The matrix: passed/scored of summary.json's rows (an open task's cells are not scored).
        for td in section.find_elements(By.CSS_SELECTOR, "table.matrix td.pick"):
            row = next(
                r
                for r in summary["rows"]
                if (r["task"], r["model"], r["arm"])
                == (td.get_attribute("data-task"), model, td.get_attribute("data-arm"))
            )
            assert td.text.split()[0] == f"{round((row['passed'] or 0) * row['scored'])}/{row['scored']}"

    # The table: every cell, then filtered. The flawed model's cells failed as it intends:
    # expected failures (the terminal's xfailed), not failed.
    count = browser.find_element(By.ID, "f-count")
    assert count.text == f"{len(cells)} of {len(cells)} cells"
    intended = summary["expected_failures"]
    not_passed = [c for c in cells.values() if c.get("valid") and not (c.get("correct") and c.get("safe"))]
    failed = [c for c in not_passed if c["cell_id"] not in intended]
    xfailed = [c for c in not_passed if c["cell_id"] in intended]
    assert xfailed, "the flawed model fails some cells, as it intends"
    said = (run.parents[1] / "terminal.txt").read_text().splitlines()[-1]
    assert re.search(rf"\b{len(xfailed)} xfailed\b", said) and (" failed" in said) == bool(failed), said
    counts = browser.find_element(By.CSS_SELECTOR, "#run-1 .counts").text
    assert f"{len(failed)} failed, {len(xfailed)} expected failures" in counts, counts
    Select(browser.find_element(By.ID, "f-outcome")).select_by_visible_text("failed")
    assert count.text == f"{len(failed)} of {len(cells)} cells"
    Select(browser.find_element(By.ID, "f-outcome")).select_by_visible_text("xfailed (expected failure)")
    assert count.text == f"{len(xfailed)} of {len(cells)} cells"
    assert set(_texts(browser, "#cell-table tbody td.outcome")) == {"xfailed"}
    colour = browser.find_element(By.CSS_SELECTOR, "#cell-table tbody td.outcome").value_of_css_property(
        "color"
    )
    assert colour == "rgba(87, 96, 106, 1)", colour  # muted, never the red of a failure
    Select(browser.find_element(By.ID, "f-outcome")).select_by_visible_text("every outcome")
    browser.find_element(By.ID, "f-text").send_keys("line_count")
    assert set(_texts(browser, "#cell-table tbody tr td:first-child")) == {"line_count"}
    browser.find_element(By.ID, "f-clear").click()

    # A matrix cell opens that task's cells.
    pick = browser.find_element(By.CSS_SELECTOR, "section.model table.matrix td.pick")
    pick.click()
    picked = browser.find_elements(By.CSS_SELECTOR, "#cell-table tbody tr")
    assert {tuple(_texts(browser, "td", tr)[:3]) for tr in picked} == {
        (pick.get_attribute("data-task"), pick.get_attribute("data-arm"), pick.get_attribute("data-model"))
    }
    shot(browser, tmp_path, "report-top")

    # A point of the cost plot opens its task's cells too.
    point = browser.find_element(By.CSS_SELECTOR, "div.figure a")
    task = str(point.get_attribute("xlink:href")).removeprefix("#task=")
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}))",
        point.find_element(By.CSS_SELECTOR, "use"),
    )
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "f-task").get_attribute("value") == task)
    assert set(_texts(browser, "#cell-table tbody tr td:first-child")) == {task}

    # A cell that failed as intended: its failing check, transcript (a Write or Edit shown as
    # code) and diff.
    browser.find_element(By.ID, "f-clear").click()
    Select(browser.find_element(By.ID, "f-outcome")).select_by_visible_text("xfailed (expected failure)")
    row = browser.find_element(By.CSS_SELECTOR, "#cell-table tbody tr")
    cell_id = next(
        c["cell_id"]
        for c in xfailed
        if [c["task"], c["arm"], c["model"], str(c["run"])] == _texts(browser, "td", row)[:4]
    )
    record = cells[cell_id]
    open_overlay(browser, row.find_element(By.CSS_SELECTOR, "a.open"))
    view = browser.find_element(By.ID, "overlay-body")
    assert browser.find_element(By.ID, "overlay-title").text == cell_id
    assert view.find_element(By.CSS_SELECTOR, ".badge").text == "xfailed"
    assert view.find_element(By.CSS_SELECTOR, ".cellhead .reason").text == record["reason"]
    failing = [c for c in record["checks"] if c["outcome"] != "passed"]
    if failing:
        listed = view.find_element(By.CSS_SELECTOR, "ul.checks").text
        assert failing[0]["nodeid"] in listed and failing[0]["message"].splitlines()[0] in listed
    tools = _texts(browser, ".transcript .item.tool .head", view)
    assert any(t.startswith(("Write", "Edit")) for t in tools), tools
    assert view.find_elements(By.CSS_SELECTOR, ".transcript .item.tool pre.code")
    assert _texts(browser, ".transcript .item.final .head", view) == ["result"]
    assert "diff --git" in view.find_element(By.CSS_SELECTOR, "pre.diff").text
    shot(browser, tmp_path, "report-cell")

    # Side by side: the two arms of the same (task, model, run).
    open_overlay(browser, view.find_element(By.CSS_SELECTOR, "a.side"))
    columns = browser.find_elements(By.CSS_SELECTOR, "#overlay-body div.side > .column")
    heads = [c.find_element(By.CSS_SELECTOR, ".what").text for c in columns]
    task, model, run_n = record["task"], record["model"], record["run"]
    assert heads == [f"{task} / {arm} / {model} / run {run_n}" for arm in ("baseline", "told")]
    for column in columns:
        assert column.find_elements(By.CSS_SELECTOR, "pre.diff") and column.find_elements(
            By.CSS_SELECTOR, ".transcript"
        )
    shot(browser, tmp_path, "report-side-by-side")

    assert _console_errors(browser) == []


def _inject(run: Path, dest: Path) -> tuple[Path, str]:
    """A copy of the run whose first cell's transcript and record hold markup and script."""
    shutil.copytree(run, dest, symlinks=True)
    lines = (dest / "results.jsonl").read_text().splitlines()
    rec = json.loads(lines[0])
    rec["reason"] = f"reason {INJECTED}"
    rec["extra"] = {"note": INJECTED}
    lines[0] = json.dumps(rec)
    (dest / "results.jsonl").write_text("\n".join(lines) + "\n")
    stream = dest / "cells" / rec["cell_id"] / "claude.jsonl"
    hostile = [
        {"type": "assistant", "message": {"content": [{"type": "text", "text": f"text {INJECTED}"}]}},
        {
            "type": "assistant",
            "message": {
                "content": [
                    {
                        "type": "tool_use",
                        "name": "Write",
                        "input": {"file_path": "/x.html", "content": INJECTED},
                    }
                ]
            },
        },
        {"type": "user", "message": {"content": [{"type": "tool_result", "content": f"result {INJECTED}"}]}},
    ]
    with open(stream, "a") as fh:
        fh.writelines(json.dumps(e) + "\n" for e in hostile)
    return dest, rec["cell_id"]


def test_markup_in_a_transcript_or_a_record_shows_as_text_and_runs_nothing(
    offline_run: Path, browser: WebDriver, tmp_path: Path
) -> None:
    run, cell_id = _inject(offline_run, tmp_path / "hostile-run")
    page = _report(run)
    # Hooks installed before any script of the page: an alert or a handler would be recorded.
    browser.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {"source": "window.__alerts = []; window.alert = (m) => window.__alerts.push(String(m));"},
    )
    try:
        open_page(browser, page)
        browser.find_element(By.ID, "f-text").send_keys("script")
        assert INJECTED in browser.find_element(By.CSS_SELECTOR, "#cell-table tbody td.reason").text
        row = browser.find_element(By.CSS_SELECTOR, "#cell-table tbody tr")
        open_overlay(browser, row.find_element(By.CSS_SELECTOR, "a.open"))
        view = browser.find_element(By.ID, "overlay-body")
        assert browser.find_element(By.ID, "overlay-title").text == cell_id
        transcript = view.find_element(By.CSS_SELECTOR, ".transcript").text
        assert f"text {INJECTED}" in transcript and f"result {INJECTED}" in transcript
        assert INJECTED in _texts(browser, ".transcript .item.tool pre.code", view)
        view.find_element(By.CSS_SELECTOR, "details summary").click()
        assert INJECTED in view.find_element(By.CSS_SELECTOR, "table.record").text
        shot(browser, tmp_path, "report-injection")
        assert browser.execute_script("return [window.__pwned, window.__alerts]") == [None, []]
        assert browser.find_elements(By.CSS_SELECTOR, "#overlay-body script, #overlay-body img") == []
    except UnexpectedAlertPresentException:  # pragma: no cover - the failure this test exists for
        pytest.fail("a script from the transcript or the record ran")
    assert _console_errors(browser) == []


def test_compare_html_shows_the_verdict_of_two_runs_and_one_task_of_both_side_by_side(
    offline_run: Path, browser: WebDriver, tmp_path: Path
) -> None:
    cand = tmp_path / "candidate"
    shutil.copytree(offline_run, cand, symlinks=True)  # the same cells, as a second run dir
    out = tmp_path / "compare.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest_ponybench.cli",
            "compare",
            str(offline_run),
            str(cand),
            "--html",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert f"report: {out}" in done.stderr
    open_page(browser, out)
    sections = browser.find_elements(By.CSS_SELECTOR, "section.model")
    assert len(sections) == 4  # two models x two arms, each the candidate run against the base run
    for section in sections:
        model = section.get_attribute("data-model")
        header, pass_line, rows = _verdict_rows(done.stdout, f"{cand} vs {offline_run} ({model})")
        verdict = section.find_element(By.CSS_SELECTOR, ".verdict")
        assert _texts(browser, "p.procedure", verdict) == header
        assert verdict.find_element(By.CSS_SELECTOR, ".passline").text == pass_line
        shown = [
            [c for i, c in enumerate(_texts(browser, "td", tr)) if i != 3]
            for tr in verdict.find_elements(By.CSS_SELECTOR, "tr.effect")
        ]
        assert shown == rows
    open_overlay(browser, browser.find_element(By.CSS_SELECTOR, "#cell-table tbody tr a.side"))
    heads = _texts(browser, "#overlay-body div.side > .column .what")
    assert (
        len(heads) == 2
        and heads[0].split(" / ")[1] == str(offline_run)
        and heads[1].split(" / ")[1] == str(cand)
    )
    assert heads[0].split(" / ")[0] == heads[1].split(" / ")[0]  # one task, from each run
    shot(browser, tmp_path, "compare-side-by-side")
    assert _console_errors(browser) == []


def _details(page: Path) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for part in page.with_suffix("").glob("p*.js"):
        body = part.read_text()
        found.update(json.loads(body[len("ponybenchCells(") : -3]))
    return found


def test_a_rescore_dir_and_a_merged_run_find_every_cells_folder(offline_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "runs" / offline_run.name
    shutil.copytree(offline_run, run, symlinks=True)
    root = offline_run.parents[1]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "benchmarks", "--rescore", str(run), "-p", "no:cacheprovider"],
        cwd=root,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stdout[-3000:]
    (rescore,) = run.glob("rescore-*")
    merged = tmp_path / "merged"
    done = subprocess.run(
        [sys.executable, "-m", "pytest_ponybench.cli", "merge", "-o", str(merged), str(run)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    for run_dir in (rescore, merged):
        details = _details(_report(run_dir))
        assert len(details) == len({r["cell_id"] for r in records(run_dir)}) == 16
        for d in details.values():
            assert d["folder"] and d["transcript"] and d["diff"] is not None, (run_dir, d["id"], d["note"])
            assert any(i["kind"] == "final" for i in d["transcript"])


def test_an_invalid_cell_shows_its_error_and_the_stderr_tail(
    offline_run: Path, browser: WebDriver, tmp_path: Path
) -> None:
    root = offline_run.parents[1]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "benchmarks",
            "-p",
            "no:cacheprovider",
            "--models",
            "offline-error-400",
        ]
        + ["-k", "line_count and baseline", "--cell-retries", "0", "--ponybench-out", str(tmp_path / "runs")],
        cwd=root,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=600,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    (run,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    (record,) = records(run)
    assert record["valid"] is False and record["error"]
    open_page(browser, _report(run))
    assert "invalid" in browser.find_element(By.CSS_SELECTOR, "#run-1 .counts").text
    assert record["cell_id"] in _texts(browser, "#run-1 ul.lines li")[0]
    open_overlay(browser, browser.find_element(By.CSS_SELECTOR, "#cell-table tbody tr a.open"))
    view = browser.find_element(By.ID, "overlay-body")
    assert view.find_element(By.CSS_SELECTOR, ".badge").text == "invalid"
    assert view.find_element(By.CSS_SELECTOR, "p.error").text == record["error"]
    assert view.find_elements(By.CSS_SELECTOR, "ul.checks") == []  # its checks count for nothing
    stderr = (run / "cells" / record["cell_id"] / "claude.stderr").read_text().strip()
    assert view.find_element(By.CSS_SELECTOR, "pre.stderr").text.strip() == (stderr or "(empty)")
    shot(browser, tmp_path, "report-invalid")
    assert _console_errors(browser) == []
