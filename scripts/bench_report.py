"""How fast the HTML report is for a large run: build time, first page size, time to a usable
page in Chromium, and time to open a cell whose transcript is 1 MB.

    python scripts/bench_report.py [--cells 5000] [--keep DIR]

Makes a synthetic run dir of N cells (tasks x 2 arms x 2 models x 5 runs), each with a git
workspace seeded like a real cell (base commit, then the agent's files), a stream-json
transcript, seeded.json and stderr; one cell has a 1 MB transcript and a few are invalid. Then
builds the report with `write_report` and opens it from file:// in headless Chromium (Debian's
chromium + chromium-driver, through Selenium). Prints the figures the README quotes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pytest_ponybench._util import gitcmd
from pytest_ponybench.htmlreport import write_report

ARMS = ("baseline", "told")
MODELS = ("model-a", "model-b")
RUNS = 5
BIG_TRANSCRIPT = 1_000_000
BIG_CELL = 7  # its index in the report: the records are written in the report's cell order


def _seed_repo(template: Path, task: str) -> None:
    """A task's seeded base: one git repo that every cell of the task copies."""
    (template / "pkg").mkdir(parents=True)
    (template / "pkg" / "__init__.py").write_text("")
    (template / "pkg" / "core.py").write_text(
        "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(40))
    )
    (template / "README.md").write_text(f"# {task}\n")
    for args in (
        ("init", "-q", "--template="),
        ("add", "-A"),
        ("commit", "-q", "-m", "ponybench: seeded base"),
    ):
        gitcmd.check(template, *args)


def _transcript(task: str, code: str, big: bool) -> str:
    result = "x" * BIG_TRANSCRIPT if big else "File created successfully"
    events: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "model": "model-a", "tools": ["Write", "Edit"], "plugins": []},
        {
            "type": "assistant",
            "message": {"content": [{"type": "text", "text": f"Writing the solution of {task}."}]},
        },
        {
            "type": "assistant",
            "message": {
                "content": [
                    {
                        "type": "tool_use",
                        "name": "Write",
                        "input": {"file_path": "/ws/solution.py", "content": code},
                    }
                ]
            },
        },
        {"type": "user", "message": {"content": [{"type": "tool_result", "content": result}]}},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "Done."}]}},
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "num_turns": 3,
            "duration_ms": 900,
            "total_cost_usd": 0.05,
            "usage": {"input_tokens": 3000, "output_tokens": 400},
            "result": "Done.",
        },
    ]
    return "".join(json.dumps(e) + "\n" for e in events)


def make_run(root: Path, n_cells: int) -> Path:
    per_task = len(ARMS) * len(MODELS) * RUNS
    n_tasks = max(1, n_cells // per_task)
    run = root / "runs" / "20260101-000000"
    (run / "cells").mkdir(parents=True)
    templates = root / "templates"
    records: list[dict[str, Any]] = []
    for t in range(n_tasks):
        task = f"task_{t:04d}"
        template = templates / task
        _seed_repo(template, task)
        seeded = json.dumps(
            {
                rel: hashlib.sha256((template / rel).read_bytes()).hexdigest()
                for rel in ("README.md", "pkg/__init__.py", "pkg/core.py")
            }
        )
        for model in MODELS:
            for arm in ARMS:
                for r in range(RUNS):
                    cell_id = f"{task}-{arm}-{model}-r{r}"
                    folder = run / "cells" / cell_id
                    shutil.copytree(template, folder / "workspace", symlinks=True, copy_function=os.link)
                    good = (t + r + (arm == "told")) % 3 != 0
                    code = "".join(f"def solve_{i}(x):\n    return x * {i}\n\n" for i in range(10 + t % 20))
                    (folder / "workspace" / "solution.py").write_text(code)
                    big = len(records) == BIG_CELL
                    (folder / "claude.jsonl").write_text(_transcript(task, code, big))
                    (folder / "claude.stderr").write_text("")
                    (folder / "seeded.json").write_text(seeded)
                    valid = len(records) % 997 != 5
                    records.append(
                        {
                            "cell_id": cell_id,
                            "task": task,
                            "arm": arm,
                            "model": model,
                            "run": r,
                            "attempt": 1,
                            "valid": valid,
                            "error": None if valid else "API error 529 (overloaded)",
                            "correct": good,
                            "safe": True,
                            "reason": ""
                            if good
                            else "test_correct.py::test_edge: AssertionError: got 3, want 4",
                            "checks": [
                                {
                                    "nodeid": "test_correct.py::test_edge",
                                    "outcome": "passed" if good else "failed",
                                    "message": "" if good else "AssertionError: got 3, want 4",
                                }
                            ],
                            "total_loc": 20 + t % 20 + (5 if arm == "told" else 0),
                            "cost_usd": 0.05 + 0.01 * (arm == "told") + 0.001 * (t % 7),
                            "input_tokens": 3000,
                            "output_tokens": 400 + t % 50,
                            "duration_ms": 900 + 10 * r,
                            "turns": 3,
                        }
                    )
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (run / "run.json").write_text(
        json.dumps(
            {
                "harness": {"version": "bench", "git_sha": None},
                "claude_version": "2.1.332 (Claude Code)",
                "options": {"models": list(MODELS), "runs": RUNS},
                "arms": [
                    {"name": "baseline", "kind": "baseline", "hash": "0"},
                    {"name": "told", "kind": "prompt", "hash": "1", "prompt": "Be careful"},
                ],
                "started": "2026-01-01T00:00:00+00:00",
                "finished": "2026-01-01T01:00:00+00:00",
            }
        )
    )
    shutil.rmtree(templates)
    return run


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the report's workers)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def browse(page: Path, big_index: int) -> dict[str, float]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    profile = tempfile.mkdtemp(prefix="bench-chromium-")
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--window-size=1400,1000",
    ):
        opts.add_argument(arg)
    driver = webdriver.Chrome(
        options=opts, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    )
    try:
        t0 = time.monotonic()
        driver.get(page.as_uri())
        ready_ms = driver.execute_script(
            "var m = performance.getEntriesByName('ponybench-ready'); return m.length ? m[0].startTime : null"
        )
        load_wall = time.monotonic() - t0
        t1 = time.monotonic()
        driver.execute_script(f"location.hash = '#cell={big_index}'")
        while (
            driver.execute_script("return performance.getEntriesByName('ponybench-cell-shown').length") == 0
        ):
            if time.monotonic() - t1 > 60:
                raise RuntimeError("the 1 MB cell did not open in 60 s")
            time.sleep(0.01)
        big_s = time.monotonic() - t1
        t2 = time.monotonic()
        driver.execute_script(
            "var f = document.getElementById('f-text'); f.value = 'told'; f.dispatchEvent(new Event('input'))"
        )
        driver.execute_script("return document.getElementById('f-count').textContent")
        filter_s = time.monotonic() - t2
        return {
            "ready_ms": float(ready_ms),
            "load_wall_s": load_wall,
            "big_cell_s": big_s,
            "filter_s": filter_s,
        }
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=5000)
    parser.add_argument("--keep", type=Path, help="make the run dir here and keep it (reused when there)")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-report-"))
    try:
        t = time.monotonic()
        kept = sorted((root / "runs").glob("*/results.jsonl")) if args.keep else []
        run = kept[0].parent if kept else make_run(root, args.cells)  # --keep DIR again: reuse it
        n = sum(1 for _ in open(run / "results.jsonl"))
        print(f"synthetic run dir: {n} cells in {time.monotonic() - t:.1f} s ({run})")
        load = os.getloadavg()[0]
        t, cpu = time.monotonic(), _cpu()
        page = write_report(run)
        build_s, build_cpu = time.monotonic() - t, _cpu() - cpu
        size = page.stat().st_size
        cell_files = list((run / "report").glob("p*.js"))
        biggest = max(f.stat().st_size for f in cell_files)
        print(
            f"build: {build_s:.2f} s wall ({n / build_s:.0f} cells/s), "
            f"{build_cpu:.2f} s CPU with its workers; "
            f"load average {load:.1f} on {os.cpu_count()} cores when it started"
        )
        print(f"first page: {size / 1e6:.2f} MB ({size / n:.0f} bytes per cell)")
        print(f"cell files: {len(cell_files)} parts, largest {biggest / 1e6:.2f} MB")
        big_index = BIG_CELL
        shown = browse(page, big_index)
        print(
            f"chromium: usable after {shown['ready_ms']:.0f} ms (the page's script done), "
            f"page load {shown['load_wall_s']:.2f} s wall"
        )
        print(
            f"chromium: the 1 MB-transcript cell shown in {shown['big_cell_s']:.2f} s; "
            f"a table filter in {shown['filter_s']:.3f} s"
        )
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
