"""A small run timed both ways: pytest-ponybench against Claude Code's own `claude plugin eval`.

Run from anywhere: ``python scripts/bench_vs_cpe.py [--rounds 5] [--runs 6] [-j 2] [--task T]
[--grading same|shipped] [--preflight | --skip-preflight] [--repeat-run]``.

The same shape both ways: one case, with and without a plugin (examples/careful-plugin),
`--runs` runs, `-j` sessions at a time, the same offline model, against a Messages API on
loopback (the offline model server; the whole script runs in a network namespace with only the
loopback when the machine allows one, so neither side can reach anything else):

- CPE: ``claude plugin eval PLUGIN --case T --runs 6 -j 2 --model M --no-publish --trust-plugin``
  on a copy of the plugin whose evals/T/case.yaml has the prompt of the shipped task T
  (default explain_fixture_scopes, a question answered in chat) and one regex grader (the reply
  is not empty), pointed at a server this script starts;
- ponybench: ``python -m pytest benchmarks -n 2 --runs 6 --tasks T --arm careful=plugin:PLUGIN
  --models M`` in a scratch project (the plugin starts its own offline server). What it grades:
  - ``--grading same`` (the default): the very case, as ``ponybench import-cpe PLUGIN/evals``
    imports it: an open task with the same regex grader on the reply, CPE's max_turns and
    timeout. Both sides do the same grading work, so the figure is what the harness costs;
  - ``--grading shipped``: the shipped task T itself, with its hidden checks when it has any
    (e.g. ``--task sql_lookup``: about a second of sandboxed pytest per cell that CPE does not do).
  ``--repeat-run`` keeps pytest's cache between ponybench's rounds, as a user's later runs
  keep it: the arm's activation check, passed in the warm-up round, is said again from the
  cache instead of run (by default every round is a first run: ``-p no:cacheprovider``).
  ``--preflight`` makes ponybench pay what a paid run pays before its first cell (the task's
  selftest, a session proving the arm active; the script declares the imported case's two
  references for it); by default it pays what any offline run pays, the arm's activation
  check (one claude session of its own, on a thread while the workers start), which CPE does
  not do; ``--skip-preflight`` leaves that out too.

One untimed round warms the page cache and writes ponybench's bytecode (PYTHONDONTWRITEBYTECODE
is dropped for ponybench, as an installed package has its bytecode); then the rounds alternate
which side goes first, and the script prints the median wall time each way (with the spread),
the ratio, the CPU each side's processes used (``getrusage`` of the waited-for children; the CPE
side adds this script's own CPU, where its model server runs), and where ponybench's time goes,
from timestamps taken without touching the plugin: the scratch project's own conftest.py (the
benchmark project's extension point) stamps the controller's hooks, the records give each claude
session's wall time, and the script times the whole command:

  start-up     process start to the conftest's import (python, pytest, the plugins' imports)
  configure    pytest_configure: the plan (tasks, arms), `claude --version`, the pre-flight, run.json
  workers      end of configure to the last xdist worker's collection (spawn, import, collect)
  activation   the arms' activation checks, from run.json (`wall_s`): an offline run runs them on
               a thread of the controller from configure on, beside the workers' start
  to the first cell  the last worker's collection to the first cell's start (the first cell
               waits for the activation checks)
  cells        the first cell's start to the last cell's report, split by the records into the
               claude sessions (`wall_s`), the scoring (`scorer_s`), the waits for a start slot
               (`start_wait_s`), each summed and divided by -j, and the rest (workspace, git,
               audit, record)
  finish       pytest_sessionfinish: summary.json, run.json, the HTML report (or its start)
  summary      pytest_terminal_summary: the tables, verdicts, spend line
  exit         the end of the summary to the process's exit

and, for CPE, its start-up (process start to its first run's `startedAt`), its runs, and its end
(the last run's end to the exit; run times are whole seconds in CPE's aggregate, so the split is
to a second). Each round also times plain `pytest -n J` of as many tests doing nothing, with the
same plugins installed: the least any runner built on pytest-xdist pays around its sessions,
printed beside what each side pays besides its sessions' phase. The machine this runs on may be
shared: the load average is printed before and after, and the figures are medians of
alternating rounds for that reason.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from cpe_offline import ROOT, isolated, lab_plugin, only_loopback, run_cpe
from pony_timing import (
    cpu_s,
    load,
    median,
    pre_flight,
    preflight_args,
    print_parts,
    print_totals,
    pytest_floor,
    run_pony,
    scratch_project,
    settle_scratch,
    spread,
)

from pytest_ponybench.offline.server import OfflineServer

CASE = """\
schema_version: "1.0"
name: {task}
execution:
  prompt: {prompt}
graders:
  - type: regex
    name: answered
    pattern: "\\\\S"
"""


REFS = {  # the imported case's two references, for --preflight's selftest
    "good": 'reply = "Function scope is the default; a module-scoped fixture is made once."\n'
    "graders = { answered = true }\n",
    "bad": 'reply = " "\ngraders = { answered = false }\n',
}


@dataclass
class Round:
    cpe_s: float = 0.0
    pony_s: float = 0.0
    cpe_cpu_s: float = 0.0
    pony_cpu_s: float = 0.0
    cpe_parts: dict[str, float] = field(default_factory=dict)
    pony_parts: dict[str, float] = field(default_factory=dict)
    floor_s: float = 0.0
    floor_cpu_s: float = 0.0


def _iso(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def cpe_parts(aggregate: Path, t0: float, t_end: float, j: int) -> dict[str, float]:
    data = json.loads(aggregate.read_text())
    runs = [r for c in data["cases"] for side in c["arms"].values() for r in side or []]
    starts = [_iso(r["startedAt"]) for r in runs if r.get("startedAt")]
    ends = [_iso(r["startedAt"]) + float(r.get("durationSeconds") or 0) for r in runs if r.get("startedAt")]
    if not starts:
        return {}
    sessions = sum(float(r.get("durationSeconds") or 0) for r in runs) / j
    return {
        "start-up": min(starts) - t0,
        "runs": max(ends) - min(starts),
        "  of which sessions (sum / -j; whole seconds)": sessions,
        "end": t_end - max(ends),
    }


def project(root: Path, task: str, plugin: Path, grading: str, preflight: bool) -> Path:
    """A scratch benchmark project with the timing conftest and one task: the plugin's CPE case
    as `ponybench import-cpe` imports it (grading "same"), or the shipped task (grading "shipped")."""
    tasks = scratch_project(root)
    if grading == "shipped":
        shutil.copytree(ROOT / "benchmarks" / "tasks" / task, tasks / task)
        shutil.copytree(ROOT / "benchmarks" / "tasks" / "_checks", tasks / "_checks")  # shared_checks
    else:
        ponybench = Path(sys.executable).with_name("ponybench")
        done = subprocess.run(
            [str(ponybench), "import-cpe", str(plugin / "evals"), "-o", str(tasks)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0 or not (tasks / task / "task.toml").is_file():
            raise SystemExit(f"ponybench import-cpe failed:\n{done.stdout}{done.stderr}")
        if preflight:
            for ref, text in REFS.items():
                (tasks / task / ref / "ref.toml").write_text(text)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("-j", type=int, default=2, help="sessions at a time (CPE -j, pytest -n)")
    ap.add_argument(
        "--task", default="explain_fixture_scopes", help="the shipped task whose prompt the case gets"
    )
    ap.add_argument(
        "--grading",
        choices=("same", "shipped"),
        default="same",
        help="ponybench grades the imported case (same: the regex grader) or the shipped task "
        "(shipped: its hidden checks)",
    )
    ap.add_argument("--model", default="offline-idle", help="an offline model both sides run")
    before = ap.add_mutually_exclusive_group()
    before.add_argument("--preflight", action="store_true", help="ponybench pays a paid run's pre-flight")
    before.add_argument(
        "--skip-preflight", action="store_true", help="ponybench skips even the arm's activation check"
    )
    ap.add_argument(
        "--repeat-run",
        action="store_true",
        help="ponybench keeps pytest's cache between rounds, as a user's later runs do: the arm's "
        "passed activation check (made in the warm-up round) is said again, not run",
    )
    ap.add_argument(
        "--no-isolate", action="store_true", help="do not enter a loopback-only network namespace"
    )
    ap.add_argument("--keep", metavar="DIR", help="keep the scratch folder (logs, run dirs) here")
    args = ap.parse_args(argv)
    if not args.no_isolate:
        code = isolated([__file__, *(argv if argv is not None else sys.argv[1:])])
        if code is not None:
            return code
    scratch = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-vs-cpe-"))
    scratch.mkdir(parents=True, exist_ok=True)
    prompt = (ROOT / "benchmarks" / "tasks" / args.task / "prompt.md").read_text().strip()
    evals = scratch / "evals"
    (evals / args.task).mkdir(parents=True)
    (evals / args.task / "case.yaml").write_text(CASE.format(task=args.task, prompt=json.dumps(prompt)))
    plugin = lab_plugin(scratch / "careful", evals)
    proj = project(scratch / "project", args.task, plugin, args.grading, args.preflight)
    sessions = 2 * args.runs
    graded = (
        "the imported case (the same regex grader both ways)"
        if args.grading == "same"
        else "the shipped task (its hidden checks; CPE: a regex grader)"
    )
    print(
        f"shape: case {args.task}, with and without careful, {args.runs} runs = {sessions} sessions, "
        f"{args.j} at a time, model {args.model}; ponybench grades {graded}, "
        f"{pre_flight(args.preflight, args.skip_preflight)}"
        + ("; a repeated run (pytest's cache kept: the arm's check said again)" if args.repeat_run else "")
    )
    print(
        f"network: {'loopback only' if only_loopback() else 'the machine (not isolated)'}; "
        f"load before: {load()}"
    )
    rounds: list[Round] = []
    failed = True
    try:
        with OfflineServer() as server:
            cpe_args = ["--case", args.task, "-j", str(args.j), "--model", args.model]
            for n in range(args.rounds + 1):
                warm = n == 0
                runs = 1 if warm else args.runs
                r = Round()
                order = ("cpe", "pony") if n % 2 else ("pony", "cpe")
                for side in order:
                    tag = f"r{n}-{side}"
                    if side == "cpe":
                        out = scratch / "cpe" / tag
                        cpu0 = cpu_s()
                        t0 = time.time()
                        done = run_cpe(
                            server,
                            plugin,
                            out,
                            [*cpe_args, "--runs", str(runs)],
                            scratch=scratch / "cli" / tag,
                        )
                        t_end = t0 + done.wall_s
                        r.cpe_cpu_s = cpu_s() - cpu0
                        (scratch / f"{tag}.log").write_text(done.output)
                        if not done.aggregate.is_file():
                            raise SystemExit(
                                f"claude plugin eval wrote no aggregate ({scratch / f'{tag}.log'})"
                            )
                        r.cpe_s, r.cpe_parts = done.wall_s, cpe_parts(done.aggregate, t0, t_end, args.j)
                    else:
                        pony_args = ["--runs", str(runs), "--tasks", args.task]
                        pony_args += ["--arm", f"careful=plugin:{plugin}", "--models", args.model]
                        pony_args += preflight_args(args.preflight, args.skip_preflight)
                        done_pony = run_pony(
                            proj, pony_args, args.j, scratch / f"{tag}.log", cache=args.repeat_run
                        )
                        r.pony_s, r.pony_cpu_s = done_pony.wall_s, done_pony.cpu_s
                        r.pony_parts, cells = done_pony.parts, len(done_pony.records)
                        if cells != 2 * runs:
                            raise SystemExit(
                                f"ponybench recorded {cells} cells, not {2 * runs} ({scratch / f'{tag}.log'})"
                            )
                r.floor_s, r.floor_cpu_s = pytest_floor(scratch / "floor", 2 * runs, args.j)
                if warm:
                    print(f"warm-up round (1 run each way): cpe {r.cpe_s:.1f} s, ponybench {r.pony_s:.1f} s")
                    continue
                rounds.append(r)
                print(
                    f"round {n} ({' then '.join(order)}): cpe {r.cpe_s:.1f} s, ponybench {r.pony_s:.1f} s, "
                    f"ratio {r.pony_s / r.cpe_s:.2f}; CPU cpe {r.cpe_cpu_s:.1f} s, "
                    f"ponybench {r.pony_cpu_s:.1f} s; load {load()}"
                )
        failed = False
    finally:
        settle_scratch(scratch, failed, bool(args.keep))
    print()
    print_totals("cpe", [(r.cpe_s, r.pony_s) for r in rounds], [(r.cpe_cpu_s, r.pony_cpu_s) for r in rounds])
    print("\nwhere the time goes (seconds):")
    print_parts("ponybench", [r.pony_parts for r in rounds])
    print_parts("claude plugin eval", [r.cpe_parts for r in rounds])
    print_fixed(rounds, args.j)
    return 0


def print_fixed(rounds: Sequence[Round], j: int) -> None:
    """What each side pays besides its sessions' phase (ponybench: all but its cells; CPE: all
    but its runs), beside plain `pytest -n J` of as many tests doing nothing: the least a runner
    built on pytest-xdist pays on this machine, whatever it does around its sessions."""
    pony = [r.pony_s - r.pony_parts["cells"] for r in rounds]
    cpe = [r.cpe_s - r.cpe_parts["runs"] for r in rounds]
    floor, floor_cpu = [r.floor_s for r in rounds], [r.floor_cpu_s for r in rounds]
    print(
        f"\nall but the sessions' phase: ponybench {median(pony):.2f} s ({spread(pony, 2)}), "
        f"cpe {median(cpe):.2f} s ({spread(cpe, 2)}); plain pytest -n {j} of as many tests doing "
        f"nothing: {median(floor):.2f} s ({spread(floor, 2)}), CPU {median(floor_cpu):.2f} s"
    )


if __name__ == "__main__":
    sys.exit(main())
