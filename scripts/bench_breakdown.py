"""Where a small offline run's CPU goes, per cell and per run, against the claude process alone.

Runs `pytest benchmarks -p no:xdist --models offline-reference` over a few tasks and runs in a
scratch copy of the project, in one process, with bytecode written as an install's would be
(`PYTHONDONTWRITEBYTECODE` dropped). A `conftest.py` in the scratch project (the benchmark
project's own extension point: the plugin is untouched) wraps each phase's function of the
package and adds up, per call, the CPU it took: the process's own (`process_time`: every thread,
the offline server's and the gateway's included) and its waited-for children's
(`getrusage(RUSAGE_CHILDREN)`: git, claude under bubblewrap, a cold scorer); a phase other
than the session counts only the thread that runs the cell (`thread_time`). CPU rather than
wall time, so that other jobs on the machine do not count. The warm scorer's scorings are its
children, not the harness's: their CPU is the records' `scorer_cpu_s`, added to the checks'
line. The whole command's CPU comes from `wait4`, so what is paid once per run is the rest.

    python scripts/bench_breakdown.py [--tasks sql_lookup,merge_intervals] [--runs 3]

Each phase is a function of the package, found by its module and name, so the script keeps
working when a module moves between wings.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_concurrency import DEFAULT_TASKS, make_project

# (label, module, qualified name): the CPU of each call, children included.
PHASES = [
    ("a cell's test, pytest's part included", "", "test"),
    ("a cell (run_cell)", "session.run", "run_cell"),
    ("  seed: lay the task and the arm", "scoring.workspace", "lay"),
    ("  seed: git snapshot of the base", "scoring.workspace", "snapshot"),
    ("  gateway seat and confinement set-up", "session.run", "launch"),
    ("  the session (claude, gateway, offline server)", "session.run", "observe"),
    ("    of which the audit of the transcript", "session.audit", "audit_transcript"),
    ("  judge: graders, metrics, checks", "session.run", "judge"),
    ("    of which the hidden checks (harness side)", "scoring.checks", "score"),
    ("  settle: workspace kept, record appended", "session.run", "settle"),
    ("    of which the integrity check", "session.integrity", "Watch.check"),
    ("  integrity: baseline taken", "session.integrity", "Watch.take"),
]

CONFTEST = """
import importlib, json, os, resource, sys, time

import pytest

PHASES = {phases!r}
SPENT = {{}}


def _cpu(clock=time.process_time):
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return clock() + c.ru_utime + c.ru_stime


def _wrap(label, fn):
    # A whole cell and its session count every thread (the gateway's and the offline server's
    # work for it); the other phases only the thread that runs the cell, so no other thread's
    # work lands in them.
    inner = label.startswith("  ") and not label.startswith("  the session")
    clock = time.thread_time if inner else time.process_time

    def timed(*args, **kwargs):
        t0 = _cpu(clock)
        try:
            return fn(*args, **kwargs)
        finally:
            SPENT.setdefault(label, []).append(_cpu(clock) - t0)

    timed.__wrapped__ = fn
    return timed


def _patch():
    for label, module, name in PHASES:
        if not module:
            continue
        mod = importlib.import_module("pytest_ponybench." + module)
        owner_name, _, attr = name.rpartition(".")
        if owner_name:  # a method: patched on its class
            owner = getattr(mod, owner_name)
            setattr(owner, attr, _wrap(label, getattr(owner, attr)))
            continue
        orig = getattr(mod, attr)
        wrapped = _wrap(label, orig)
        for other in list(sys.modules.values()):  # every module that imported it by name
            if getattr(other, "__name__", "").startswith("pytest_ponybench"):
                for key, value in list(vars(other).items()):
                    if value is orig:
                        setattr(other, key, wrapped)


def pytest_collection_finish(session):
    _patch()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    t0 = _cpu()
    yield
    SPENT.setdefault(PHASES[0][0], []).append(_cpu() - t0)


def pytest_unconfigure(config):
    with open(os.environ["BREAKDOWN_OUT"], "w") as fh:
        json.dump(SPENT, fh)
"""


def _ms(xs: list[float]) -> str:
    if not xs:
        return f"{'-':>7} {'-':>7} {'-':>13}"
    lo, hi = min(xs) * 1000, max(xs) * 1000
    return f"{statistics.mean(xs) * 1000:7.0f} {statistics.median(xs) * 1000:7.0f} {lo:6.0f}-{hi:<6.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", default=",".join(DEFAULT_TASKS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="keep the phases' figures here (JSON)")
    args = parser.parse_args()
    tasks = [t for t in args.tasks.split(",") if t]
    spread = [(lbl, mod, name) for lbl, mod, name in PHASES]
    with tempfile.TemporaryDirectory() as tmp:
        project = make_project(Path(tmp), tasks)
        (project / "conftest.py").write_text(CONFTEST.format(phases=spread))
        out = Path(tmp) / "phases.json"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["BREAKDOWN_OUT"] = str(out)
        command = [
            sys.executable, "-m", "pytest", "benchmarks", "-q", "-p", "no:xdist",
            "-p", "no:cacheprovider", "--models", "offline-reference", "--runs", str(args.runs),
        ]  # fmt: skip
        load = os.getloadavg()[0]
        start = time.perf_counter()
        with open(Path(tmp) / "pytest.log", "wb") as log:
            proc = subprocess.Popen(command, cwd=project, env=env, stdout=log, stderr=subprocess.STDOUT)
            _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            sys.exit(f"the run failed ({code}):\n{(Path(tmp) / 'pytest.log').read_text()[-3000:]}")
        records = [
            json.loads(line)
            for path in (project / "runs").glob("*/results.jsonl")
            for line in path.read_text().splitlines()
            if line.strip()
        ]
        spent: dict[str, list[float]] = json.loads(out.read_text())
        if args.keep is not None:
            args.keep.write_text(json.dumps({"phases": spent, "records": records}))
    tree = usage.ru_utime + usage.ru_stime
    cells = len(records)
    claude = [float(r.get("claude_cpu_s") or 0) for r in records]
    scorer = [float(r.get("scorer_cpu_s") or 0) for r in records]
    cell_cpu = spent.get("a cell's test, pytest's part included", [])
    harness = [c - k + s for c, k, s in zip(cell_cpu, claude, scorer, strict=False)]
    print(
        f"{cells} cells ({len(tasks)} tasks x {args.runs} runs, offline-reference, one process),"
        f" wall {wall:.1f} s, load average {load:.1f} -> {os.getloadavg()[0]:.1f}"
    )
    print(f"{'CPU per cell, ms':<52} {'mean':>7} {'median':>7} {'range':>13}")
    print(f"{'the claude process (claude_cpu_s)':<52} {_ms(claude)}")
    print(f"{'harness: the test, claude excluded, checks included':<52} {_ms(harness)}")
    for label, _mod, _name in PHASES:
        xs = spent.get(label, [])
        if label.startswith("  the session"):
            xs = [x - k for x, k in zip(xs, claude, strict=False)]
            label = "  the session, claude excluded (gateway, server)"
        print(f"{label:<52} {_ms(xs)}")
    print(f"{'    the checks in the warm scorer (scorer_cpu_s)':<52} {_ms(scorer)}")
    once = tree - sum(cell_cpu) - sum(scorer)
    print(f"\nwhole command (wait4): {tree:.2f} s of CPU; claude {sum(claude):.2f} s;")
    print(f"harness per cell (mean): {statistics.mean(harness):.3f} s; once per run: {once:.2f} s")
    print("(once per run: python, pytest, the plugin's imports and configure, the warm scorer's start,")
    print(" collection, the summary and the report)")


if __name__ == "__main__":
    main()
