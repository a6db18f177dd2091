"""A small run timed both ways: pytest-ponybench against the seed runner this project grew from.

Run from anywhere: ``python scripts/bench_vs_seed.py [--rounds 3] [--runs 3] [-j 2]
[--tasks a,b,c,d] [--prompt TEXT] [--preflight | --skip-preflight]``.

The seed runner was one Python file: it checked its own scorers, made one throwaway claude call,
then ran the cells in a thread pool, each in a temporary workspace outside any git repository,
the claude CLI unconfined, the files scored in its own process, results.json rewritten after
every cell and summary.json and a table at the end. This script holds a small runner of that
shape (``--seed-run``, started by the script itself as a child process) so that both sides run
the same workload, on the same machine, against the same offline model server on loopback:

- tasks x arms x runs: the four quick Python tasks by default (sql_lookup, merge_intervals,
  semver_compare, line_count: no seed files, no fixture), the arms ``baseline`` and ``brief``
  (``--prompt``, default "Be brief.", appended to the system prompt), ``--runs 3``, ``-j 2``
  at a time, model ``offline-reference`` (its sessions write each task's good reference);
- ponybench: ``python -m pytest benchmarks -n 2 --runs 3 --tasks a,b,c,d --arm brief=prompt:TEXT
  --models offline-reference`` in a scratch project holding those shipped tasks (the plugin
  starts its own offline server; by default it pays an offline run's activation check of the
  ``brief`` arm, ``--preflight`` makes it pay a paid run's pre-flight and ``--skip-preflight``
  neither);
- the seed-shaped runner, in one process: an offline server of its own (as ponybench's), the
  good and bad references of each task scored as its selftest, and a check that a cell's
  process group can be killed; one warm-up session ("Reply with: ok"); then a
  ``ThreadPoolExecutor(j)`` of cells. A cell: a workspace under a temporary folder with the
  task's ``seed/`` files (none for these tasks), then ``claude -p PROMPT --model M
  --permission-mode bypassPermissions --output-format json --setting-sources project,local
  --strict-mcp-config --disallowedTools Bash --append-system-prompt TEXT`` with
  ``CLAUDE_CODE_DISABLE_CLAUDE_MDS=1 CLAUDE_CODE_DISABLE_AUTO_MEMORY=1``, its stdout in a file,
  waited for with a timeout (its process group killed past it), unconfined; the files scored;
  lines of code and the compressed size counted; the workspace moved into the run folder;
  results.json rewritten (with ``claude --version``, asked each time, as the seed did).
  TEXT is ponybench's own "write the code and stop" instruction after the arm's prompt, so the
  model gets the same system prompt both ways. The CLI's environment is the offline one the
  CPE comparison uses (``cpe_offline.cpe_env``: a scratch HOME and TMPDIR shared by the run's
  cells, the server's URL, a placeholder key, ``IS_SANDBOX=1`` for root).

  Scoring: the seed imported the written module in its own process and asserted on it. Here
  the same process runs the task's hidden checks (its ``checks/`` and the shared checks it
  names) with ``pytest.main``, one scoring at a time under a lock (pytest's state and the
  working directory are the process's), the workspace as the working directory and first on
  ``sys.path``, and the modules it loaded dropped afterwards. That is the cheapest honest
  equivalent: no process per scoring and no sandbox, like the seed, yet the very checks
  ponybench runs in its confined warm scorer, so both sides grade the same way and the ratio is
  what each harness costs around the same sessions and checks.

One untimed round (1 run each way) warms the page cache and writes the bytecode (both sides run
without PYTHONDONTWRITEBYTECODE, as installed packages have their bytecode); then the rounds
alternate which side goes first. Each side's CPU is ``getrusage`` of the waited-for children
(the seed runner and its claude processes; pytest, its workers, claude and the scorers). Where
the time goes: ponybench's from the timing conftest.py of the CPE comparison (`pony_timing`),
the seed runner's from stamps it writes itself. The whole script runs in a network namespace
with only the loopback when the machine allows one, as the CPE comparison does. The machine may
be shared: the load average is printed with every round.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import uuid
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cpe_offline import ROOT, cpe_env, isolated, only_loopback
from pony_timing import (
    cpu_s,
    load,
    pre_flight,
    preflight_args,
    print_parts,
    print_totals,
    run_pony,
    scratch_project,
    settle_scratch,
    timed_env,
)

from pytest_ponybench.agents.common import NO_RUN
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer

TASKS = ROOT / "benchmarks" / "tasks"
QUICK = "sql_lookup,merge_intervals,semver_compare,line_count"
CELL_TIMEOUT_S = 300.0
CODE_SUFFIXES = {".py", ".js", ".ts", ".jsx", ".tsx", ".html", ".css", ".go", ".rs", ".java", ".rb", ".sh"}


# ---------------------------------------------------------------- the seed-shaped runner


@dataclass
class SeedTask:
    name: str
    prompt: str
    axis: str
    seed: dict[str, bytes]
    good: dict[str, bytes]
    bad: dict[str, bytes]
    has_safe: bool
    checks: Path = Path()  # the folder the scorer runs, laid out once per run


def _files(folder: Path) -> dict[str, bytes]:
    if not folder.is_dir():
        return {}
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def read_task(name: str) -> SeedTask:
    """A shipped task as the seed runner needs it; only file-writing tasks (no fixture)."""
    folder = TASKS / name
    if not (folder / "task.toml").is_file():
        raise SystemExit(f"--tasks: no task {name!r} in {TASKS}")
    meta = tomllib.loads((folder / "task.toml").read_text())
    if meta.get("kind", "surgical") != "surgical":
        raise SystemExit(
            f"--tasks: {name} is a {meta['kind']!r} task; the seed runner here takes surgical ones"
        )
    checks = {p.name for p in (folder / "checks").glob("test*.py")}
    return SeedTask(
        name=name,
        prompt=(folder / "prompt.md").read_text().strip(),
        axis=str(meta.get("axis", "correct")),
        seed=_files(folder / "seed"),
        good=_files(folder / "good"),
        bad=_files(folder / "bad"),
        has_safe=any(c.startswith("test_safe") for c in checks),
    )


def lay_checks(task: SeedTask, dest: Path) -> None:
    """The task's checks and the shared modules its task.toml names, with an ini of our own so
    that no configuration around the workspace applies."""
    shutil.copytree(TASKS / task.name / "checks", dest)
    meta = tomllib.loads((TASKS / task.name / "task.toml").read_text())
    for shared in meta.get("shared_checks", []):
        shutil.copy(TASKS / "_checks" / shared, dest / shared)
    (dest / "pytest.ini").write_text("[pytest]\naddopts =\n")
    task.checks = dest


def _write(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)


class _Outcomes:
    """A pytest plugin object: which axis had a check fail, and how many passed."""

    def __init__(self) -> None:
        self.failed = {"correct": False, "safe": False}
        self.passed = {"correct": 0, "safe": 0}
        self.reason = ""

    @staticmethod
    def _axis(nodeid: str) -> str:
        return "safe" if nodeid.split("::")[0].rsplit("/", 1)[-1].startswith("test_safe") else "correct"

    def _fail(self, axis: str, nodeid: str) -> None:
        self.failed[axis] = True
        self.reason = self.reason or nodeid

    def pytest_runtest_logreport(self, report: Any) -> None:
        axis = self._axis(report.nodeid)
        if report.failed or (report.when == "call" and report.skipped):
            self._fail(axis, report.nodeid)
        elif report.when == "call" and report.passed:
            self.passed[axis] += 1

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            for axis in self.failed:
                self._fail(axis, report.nodeid or "collection")


_SCORING = threading.Lock()


@contextmanager
def _inside(ws: Path, checks: Path) -> Iterator[None]:
    """The working directory and the module path of one scoring, and nothing of it left after."""
    cwd, path = os.getcwd(), list(sys.path)
    os.chdir(ws)
    sys.path[:0] = [str(ws), str(checks)]
    try:
        yield
    finally:
        os.chdir(cwd)
        sys.path[:] = path
        for name, module in list(sys.modules.items()):
            where = getattr(module, "__file__", None) or ""
            if where.startswith((str(ws), str(checks))):
                del sys.modules[name]


def score(task: SeedTask, ws: Path, tmp: Path) -> dict[str, Any]:
    """The task's hidden checks against ws, in this process (see the module's docstring)."""
    import pytest  # the seed runner's scorer needs it; the bench side does not

    outcomes = _Outcomes()
    args = [
        "-q",
        "-s",
        "-p",
        "no:cacheprovider",
        "--import-mode=importlib",
        "-c",
        str(task.checks / "pytest.ini"),
    ]
    args += ["--rootdir", str(task.checks), "--basetemp", str(tmp), str(task.checks)]
    with _SCORING, _inside(ws, task.checks):
        t0 = time.time()  # the wait for the lock is not scoring
        code = int(pytest.main(args, plugins=[outcomes]))
        took = time.time() - t0
    ran_ok = code in (0, 1)
    correct = ran_ok and not outcomes.failed["correct"] and outcomes.passed["correct"] > 0
    safe = ran_ok and not outcomes.failed["safe"] and (outcomes.passed["safe"] > 0 or not task.has_safe)
    reason = outcomes.reason or ("" if ran_ok else f"pytest exited with {code}")
    return {"correct": int(correct), "safe": int(safe), "reason": reason, "score_s": took}


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def selftest(tasks: Sequence[SeedTask], scratch: Path) -> int:
    """Each good reference scores correct and safe, each bad one fails its axis, and a cell's
    process group can be killed: the number of failures."""
    failures = 0
    for task in tasks:
        for kind, files in (("good", task.good), ("bad", task.bad)):
            ws = Path(tempfile.mkdtemp(prefix=f"{task.name}-{kind}-", dir=scratch))
            _write(ws, {**task.seed, **files})
            got = score(task, ws, ws.with_name(ws.name + "-tmp"))
            ok = got["correct"] == got["safe"] == 1 if kind == "good" else got[task.axis] == 0
            print(f"{'ok' if ok else 'BROKEN'}  {task.name} {kind}: {got['reason'] or 'passed'}")
            failures += not ok
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    _kill_group(proc)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        failures += 1
    return failures


@dataclass
class Seeded:
    """What a seed-shaped run shares between its cells."""

    server: OfflineServer
    scratch: Path  # workspaces while they run, the scorer's temporary folders, HOME and TMPDIR
    out: Path  # the run folder: the workspaces moved here, results.json, summary.json
    model: str
    arms: dict[str, str]  # name -> appended prompt ("" for baseline)
    results: list[dict[str, Any]] = field(default_factory=list)


def claude_run(ctx: Seeded, ws: Path, prompt: str, append: str, script: CellScript) -> float:
    """One headless session in ws, its stdout in ws/_claude.json; its wall seconds."""
    cell = f"seed-{uuid.uuid4().hex[:12]}"
    ctx.server.register(cell, script)
    home, tmp = ctx.scratch / "home", ctx.scratch / "tmp"
    env = cpe_env(ctx.server.cell_url(cell), home, tmp)
    env.update(CLAUDE_CODE_DISABLE_CLAUDE_MDS="1", CLAUDE_CODE_DISABLE_AUTO_MEMORY="1")
    env.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)  # the scorer's, not the session's
    argv = ["claude", "-p", prompt, "--model", ctx.model, "--permission-mode", "bypassPermissions"]
    argv += ["--output-format", "json", "--setting-sources", "project,local", "--strict-mcp-config"]
    argv += ["--disallowedTools", "Bash", "--append-system-prompt", append]
    t0 = time.time()
    try:
        with (ws / "_claude.json").open("wb") as out, (ws / "_claude.stderr.txt").open("wb") as err:
            proc = subprocess.Popen(argv, cwd=ws, stdout=out, stderr=err, env=env, start_new_session=True)
            try:
                proc.wait(timeout=CELL_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                proc.wait(timeout=15)
                err.write(f"\nkilled after {CELL_TIMEOUT_S:g} s\n".encode())
    finally:
        ctx.server.unregister(cell)
    return time.time() - t0


def _appended(extra: str) -> str:
    return f"{extra}\n\n{NO_RUN}" if extra else NO_RUN


def _is_test(rel: Path) -> bool:
    name = rel.name.lower()
    return (
        name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
        or any(part.lower() in ("test", "tests") for part in rel.parts[:-1])
    )


def code_stats(ws: Path, seeded: set[str]) -> dict[str, int]:
    """Delivered code in numbers: files, non-blank lines (with and without comments), test
    lines apart, and the deflated size of the source."""
    src: list[str] = []
    stats = {"files": 0, "total_loc": 0, "src_loc": 0, "test_files": 0, "test_loc": 0}
    for p in sorted(ws.rglob("*")):
        rel = p.relative_to(ws)
        if (
            not p.is_file()
            or p.suffix not in CODE_SUFFIXES
            or p.name.startswith((".", "_"))
            or "__pycache__" in rel.parts
            or str(rel) in seeded
        ):
            continue
        text = p.read_text(errors="ignore")
        lines = [s for s in (line.strip() for line in text.splitlines()) if s]
        stats["files"] += 1
        if _is_test(rel):
            stats["test_files"] += 1
            stats["test_loc"] += len(lines)
        else:
            src.append(text)
            stats["total_loc"] += len(lines)
            stats["src_loc"] += sum(not s.startswith(("#", "//", "*", "/*")) for s in lines)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    joined = "\n".join(src).encode()
    stats["gz_code"] = len(packer.compress(joined) + packer.flush()) if joined else 0
    return stats


def session_meta(ws: Path) -> dict[str, Any]:
    """What the CLI's JSON result says: cost, turns, tokens, time, denials, reply length."""
    try:
        data = json.loads((ws / "_claude.json").read_text())
    except (OSError, ValueError):
        return {"error": "no JSON result"}
    usage = data.get("usage") or {}
    return {
        "cost": data.get("total_cost_usd"),
        "duration_ms": data.get("duration_ms"),
        "turns": data.get("num_turns"),
        "denials": len(data.get("permission_denials") or []),
        "in_tokens": usage.get("input_tokens"),
        "out_tokens": usage.get("output_tokens"),
        "reply_words": len(str(data.get("result") or "").split()),
        "is_error": bool(data.get("is_error")),
    }


def run_cell(ctx: Seeded, task: SeedTask, arm: str, run: int) -> dict[str, Any]:
    name = f"{task.name}__{arm}__{ctx.model}__{run}"
    ws = ctx.scratch / "cells" / name
    ws.mkdir(parents=True)
    try:
        _write(ws, task.seed)
        script = CellScript(ws.resolve(), dict(task.good), dict(task.bad))
        session_s = claude_run(ctx, ws, task.prompt, _appended(ctx.arms[arm]), script)
        scored = score(task, ws, ctx.scratch / "pytest" / name)
        return {
            "task": task.name,
            "arm": arm,
            "model": ctx.model,
            "run": run,
            **scored,
            **code_stats(ws, set(task.seed)),
            **session_meta(ws),
            "session_s": session_s,
        }
    finally:
        shutil.move(str(ws), str(ctx.out / name))


def _claude_version() -> str:
    done = subprocess.run(["claude", "--version"], capture_output=True, text=True)
    return done.stdout.strip()


def summarize(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["task"], r["arm"], r["model"]), []).append(r)
    rows = []
    for (task, arm, model), cells in sorted(groups.items()):
        n = len(cells)
        costs = [c["cost"] for c in cells if c.get("cost") is not None]
        wrote = [c for c in cells if c.get("total_loc")]
        rows.append(
            {
                "task": task,
                "arm": arm,
                "model": model,
                "n": n,
                "correct_rate": round(sum(c.get("correct") or 0 for c in cells) / n, 3),
                "safe_rate": round(sum(c.get("safe") or 0 for c in cells) / n, 3),
                "loc_median": statistics.median(c["total_loc"] for c in wrote) if wrote else 0,
                "cost_mean": round(statistics.mean(costs), 4) if costs else None,
                "time_s_mean": round(statistics.mean((c.get("duration_ms") or 0) / 1000 for c in cells), 1),
            }
        )
    return rows


def seed_run(args: argparse.Namespace) -> int:
    """The seed-shaped runner (``--seed-run OUT``); writes its timing stamps to OUT/stamps.json."""
    stamps: dict[str, float] = {"main": time.time()}
    # Only the plugins a scoring names: the checks need none of the installed ones (ponybench's
    # scorer runs them so too).
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    out = Path(args.seed_run)
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="seed-cells-"))
    for sub in ("home", "tmp", "cells", "pytest", "selftest"):
        (scratch / sub).mkdir()
    tasks = [read_task(t) for t in args.tasks.split(",")]
    for task in tasks:
        lay_checks(task, scratch / "checks" / task.name)
    arms = {"baseline": "", "brief": args.prompt}
    try:
        with OfflineServer() as server:
            ctx = Seeded(server, scratch, out, args.model, arms)
            if selftest(tasks, scratch / "selftest"):
                print("selftest: the scorers are broken; no cell runs", file=sys.stderr)
                return 1
            stamps["selftest"] = time.time()
            warm = Path(tempfile.mkdtemp(prefix="warm-", dir=scratch))
            claude_run(ctx, warm, "Reply with: ok", NO_RUN, CellScript(warm.resolve(), {}, {}))
            stamps["warmup"] = time.time()
            specs = [(t, arm, r) for t in tasks for arm in arms for r in range(args.runs)]
            print(f"running {len(specs)} cells, {args.j} at a time", flush=True)
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
                futures = {pool.submit(run_cell, ctx, *spec): spec for spec in specs}
                for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
                    task, arm, run = futures[fut]
                    try:
                        res = fut.result()
                    except Exception as exc:  # a crashed cell counts as failed, the run goes on
                        res = {"task": task.name, "arm": arm, "model": args.model, "error": repr(exc)[:300]}
                    ctx.results.append(res)
                    print(
                        f"  [{done}/{len(specs)}] {task.name} / {arm} #{run}: correct={res.get('correct')} "
                        f"safe={res.get('safe')} loc={res.get('total_loc')}",
                        flush=True,
                    )
                    (out / "results.json").write_text(
                        json.dumps({"claude": _claude_version(), "results": ctx.results}, indent=2)
                    )
            stamps["cells"] = time.time()
        rows = summarize(ctx.results)
        (out / "summary.json").write_text(json.dumps(rows, indent=2))
        print(f"\n{'task':<16} {'arm':<10} {'n':>3} {'correct':>8} {'safe':>5} {'LOC':>5} {'time_s':>7}")
        for row in rows:
            print(
                f"{row['task']:<16} {row['arm']:<10} {row['n']:>3} {row['correct_rate']:>8} "
                f"{row['safe_rate']:>5} {row['loc_median']:>5} {row['time_s_mean']:>7}"
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        stamps["end"] = time.time()
        (out / "stamps.json").write_text(json.dumps(stamps))
    return 0


# ---------------------------------------------------------------- the comparison


@dataclass
class Side:
    wall_s: float
    cpu_s: float
    passed: int  # cells scored correct and safe
    cells: int
    parts: dict[str, float]


def seed_parts(
    stamps: dict[str, float], results: list[dict[str, Any]], t0: float, t_end: float, j: int
) -> dict[str, float]:
    def per_slot(key: str) -> float:
        return sum(float(r.get(key) or 0) for r in results) / j

    cells = stamps["cells"] - stamps["warmup"]
    sessions, scoring = per_slot("session_s"), per_slot("score_s")
    return {
        "start-up (python, imports)": stamps["main"] - t0,
        "selftest (references scored, kill check)": stamps["selftest"] - stamps["main"],
        "warm-up session": stamps["warmup"] - stamps["selftest"],
        "cells": cells,
        "  of which claude sessions (sum / -j)": sessions,
        "  of which scoring (sum / -j)": scoring,
        "  of which the rest (workspace, stats, record)": cells - sessions - scoring,
        "end (summary.json, table, exit)": t_end - stamps["cells"],
    }


def run_seed(args: argparse.Namespace, runs: int, out: Path, log: Path) -> Side:
    argv = [sys.executable, __file__, "--seed-run", str(out), "--tasks", args.tasks, "--runs", str(runs)]
    argv += ["-j", str(args.j), "--model", args.model, "--prompt", args.prompt]
    env = timed_env()  # as for ponybench: bytecode as an install has it
    cpu0 = cpu_s()
    t0 = time.time()
    with log.open("wb") as sink:
        code = subprocess.run(
            argv, env=env, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT, timeout=1800
        ).returncode
    t_end = time.time()
    cpu = cpu_s() - cpu0
    if code != 0 or not (out / "results.json").is_file():
        raise SystemExit(f"the seed runner failed (exit {code}; {log})")
    results = json.loads((out / "results.json").read_text())["results"]
    stamps = json.loads((out / "stamps.json").read_text())
    passed = sum(1 for r in results if r.get("correct") and r.get("safe"))
    return Side(t_end - t0, cpu, passed, len(results), seed_parts(stamps, results, t0, t_end, args.j))


def run_ponybench(proj: Path, args: argparse.Namespace, runs: int, log: Path) -> Side:
    pony_args = ["--runs", str(runs), "--tasks", args.tasks, "--arm", f"brief=prompt:{args.prompt}"]
    pony_args += ["--models", args.model, *preflight_args(args.preflight, args.skip_preflight)]
    done = run_pony(proj, pony_args, args.j, log)
    passed = sum(1 for r in done.records if r.get("correct") and r.get("safe"))
    return Side(done.wall_s, done.cpu_s, passed, len(done.records), done.parts)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("-j", type=int, default=2, help="sessions at a time (the seed's --workers, pytest -n)")
    ap.add_argument("--tasks", default=QUICK, help="shipped surgical tasks, comma-separated")
    ap.add_argument("--prompt", default="Be brief.", help="the second arm's appended system prompt")
    ap.add_argument("--model", default="offline-reference", help="an offline model both sides run")
    before = ap.add_mutually_exclusive_group()
    before.add_argument("--preflight", action="store_true", help="ponybench pays a paid run's pre-flight")
    before.add_argument(
        "--skip-preflight", action="store_true", help="ponybench skips even the arm's activation check"
    )
    ap.add_argument(
        "--no-isolate", action="store_true", help="do not enter a loopback-only network namespace"
    )
    ap.add_argument("--keep", metavar="DIR", help="keep the scratch folder (logs, run dirs) here")
    ap.add_argument("--seed-run", metavar="OUT", help=argparse.SUPPRESS)  # the child: the seed-shaped runner
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.seed_run:
        return seed_run(args)
    for name in args.tasks.split(","):
        read_task(name)  # a bad name or kind stops here, before any round
    if not args.no_isolate:
        code = isolated([__file__, *(argv if argv is not None else sys.argv[1:])])
        if code is not None:
            return code
    scratch = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-vs-seed-"))
    scratch.mkdir(parents=True, exist_ok=True)
    proj = scratch / "project"
    tasks_dir = scratch_project(proj)
    for name in [*args.tasks.split(","), "_checks"]:
        shutil.copytree(TASKS / name, tasks_dir / name)
    n_tasks = len(args.tasks.split(","))
    print(
        f"shape: tasks {args.tasks} x arms baseline, brief ({args.prompt!r}) x {args.runs} runs = "
        f"{n_tasks * 2 * args.runs} cells, {args.j} at a time, model {args.model}; ponybench "
        f"{pre_flight(args.preflight, args.skip_preflight)}"
    )
    print(
        f"network: {'loopback only' if only_loopback() else 'the machine (not isolated)'}; "
        f"load before: {load()}"
    )
    rounds: list[tuple[Side, Side]] = []
    failed = True
    try:
        for n in range(args.rounds + 1):
            warm = n == 0
            runs = 1 if warm else args.runs
            order = ("seed", "pony") if n % 2 else ("pony", "seed")
            sides: dict[str, Side] = {}
            for side in order:
                tag = f"r{n}-{side}"
                if side == "seed":
                    sides[side] = run_seed(args, runs, scratch / "seed" / tag, scratch / f"{tag}.log")
                else:
                    sides[side] = run_ponybench(proj, args, runs, scratch / f"{tag}.log")
                if sides[side].cells != n_tasks * 2 * runs:
                    raise SystemExit(
                        f"{side}: {sides[side].cells} cells, not {n_tasks * 2 * runs} ({tag}.log)"
                    )
            seed, pony = sides["seed"], sides["pony"]
            if warm:
                print(
                    f"warm-up round (1 run each way): seed {seed.wall_s:.1f} s, ponybench {pony.wall_s:.1f} s"
                )
                continue
            rounds.append((seed, pony))
            print(
                f"round {n} ({' then '.join(order)}): seed {seed.wall_s:.1f} s, "
                f"ponybench {pony.wall_s:.1f} s, "
                f"ratio {pony.wall_s / seed.wall_s:.2f}; CPU seed {seed.cpu_s:.1f} s, ponybench "
                f"{pony.cpu_s:.1f} s, ratio {pony.cpu_s / seed.cpu_s:.2f}; passed seed {seed.passed}/"
                f"{seed.cells}, ponybench {pony.passed}/{pony.cells}; load {load()}"
            )
        failed = False
    finally:
        settle_scratch(scratch, failed, bool(args.keep))
    print()
    print_totals("seed", [(s.wall_s, p.wall_s) for s, p in rounds], [(s.cpu_s, p.cpu_s) for s, p in rounds])
    print("\nwhere the time goes (seconds):")
    print_parts("ponybench", [p.parts for _, p in rounds])
    print_parts("seed runner", [s.parts for s, _ in rounds])
    return 0


if __name__ == "__main__":
    sys.exit(main())
