"""The instrument selftest: prove every scorer before any money is spent.

One pytest item per (task, reference) plus the harness's own instrument checks. Items are built
by the plugin, not collected from files, so `pytest --selftest-only` works from any folder
layout. `SelftestSummary` ends the run with one line per task: its references by kind, whether
each got its declared verdict, its mutation figure as `ponybench mutate` stored it in the
task folder, and what the task lacks against the suite's minimums.

A task's graders are proven the same way (plan/reference_proofs.check_reference, which the
pre-flight of a paid run calls too): each reference's evidence (its files, its declared
reply and tool calls, as the offline agents would leave them) is graded, and each grader must
give the outcome the reference declares; judge graders are asked the offline judge, in process,
unless a judge is given. The summary says how many references each judge grader got right.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench._util.procs import group_members
from pytest_ponybench.analysis import report
from pytest_ponybench.core.graders.outcome import JUDGE_TYPES
from pytest_ponybench.core.tasks import Reference, Task, TaskError, load_task
from pytest_ponybench.isolation.sandbox import kill_group
from pytest_ponybench.mutation.mutantsfile import MUTANTS_FILE
from pytest_ponybench.plan.reference_proofs import check_reference
from pytest_ponybench.scoring.contract import CONTRACT_FILE, contract_of

__all__ = [
    "ContractItem",
    "INSTRUMENT_CHECKS",
    "InstrumentItem",
    "MUTATION_GOAL",
    "NODE_PREFIX",
    "PROPERTY",
    "ReferenceItem",
    "SelftestCollector",
    "SelftestFailure",
    "SelftestItem",
    "SelftestSummary",
    "contract_figure",
    "declaration",
    "mutation_figure",
    "selftest_items",
    "unproven",
]

PROPERTY = "ponybench_selftest"
NODE_PREFIX = "selftest::"
MUTATION_GOAL = 0.9


class SelftestFailure(Exception):
    """An instrument is broken; the message names the task, reference, axis and check."""


def mutation_figure(task: Task) -> tuple[str, bool]:
    """The task's stored mutation figure in words, and whether it is below the goal."""
    path = task.path / MUTANTS_FILE
    if not path.is_file():
        return "no mutation figure (ponybench mutate)", False
    try:
        result = tomllib.loads(path.read_text(encoding="utf-8")).get("result", {})
        killed, total, equivalent = (int(result[k]) for k in ("killed", "total", "equivalent"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, tomllib.TOMLDecodeError) as exc:
        return f"{MUTANTS_FILE} has no readable [result] ({exc!r})", True
    scored = total - equivalent
    return f"mutants {killed}/{scored} killed ({equivalent} equivalent)", killed < MUTATION_GOAL * scored


def contract_figure(task: Task) -> tuple[str, list[str]]:
    """The task's contract table in words, and what is wrong with it (a task without one is
    said, not failed)."""
    contract = contract_of(task)
    if contract is None:
        return f"no contract table ({CONTRACT_FILE})", []
    return contract.figure(), list(contract.problems)


def unproven(task: Task) -> list[str]:
    """The graders no reference proves: none declares them passing, or none failing (an
    imported suite's, until its references are written)."""
    return [
        g.name
        for g in task.graders
        if {True, False} - {r.meta.graders[g.name] for r in task.references if g.name in r.meta.graders}
    ]


def declaration(task: Task, ref: Reference) -> dict[str, Any]:
    """What the summary needs to know about a reference, carried in its report (xdist-safe)."""
    return {
        "task": task.id,
        "reference": ref.name,
        "kind": ref.expect.kind,
        "expect": ref.expect.text(),
        "shortfalls": task.shortfalls(),
        "unproven": unproven(task),
        "mutants": mutation_figure(task),
        "contract": contract_figure(task)[0],
        "blind": ref.blind,
    }


class SelftestItem(pytest.Item):
    """A broken instrument is reported by its message alone: no traceback into the harness."""

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, SelftestFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))


class ReferenceItem(SelftestItem):
    """One reference of a task must get the verdict it declares on every declared axis."""

    def __init__(self, *, task: Task, which: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task = task
        self.which = which
        for tag in task.tags:
            self.add_marker(tag)
        ref = next(r for r in task.references if r.name == which)
        self.user_properties.append((PROPERTY, declaration(task, ref)))

    def runtest(self) -> None:
        problem, verdict = check_reference(self.task, self.which)
        self.user_properties.append((PROPERTY + "_verdict", verdict))
        if problem:
            raise SelftestFailure(problem)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.task.path, 0, f"selftest {self.task.id} {self.which} reference"


class ContractItem(SelftestItem):
    """A task's contract table must quote every word of its prompt and name only real checks."""

    def __init__(self, *, task: Task, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task = task
        for tag in task.tags:
            self.add_marker(tag)
        self.user_properties.append((PROPERTY + "_contract", task.id))

    def runtest(self) -> None:
        _, problems = contract_figure(self.task)
        if problems:
            raise SelftestFailure("\n".join(f"task {self.task.id}: {p}" for p in problems))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.task.path / CONTRACT_FILE, 0, f"selftest {self.task.id} contract table"


def _crashed_cell_never_passes() -> None:
    """A cell that crashed before it was scored is no pass: left out of the rates and counted
    apart (bounded in the verdicts, as unscored cells are), never a failure nor a success."""
    rows = report.aggregate([{"task": "t", "arm": "a", "model": "m", "run": 0, "error": "boom"}])
    row = rows[0]
    left_out = row["invalid"] + row["unscored"] == 1 and row["scored"] == 0
    if not (row["n"] == 1 and left_out and not row["passed"] and not row["correct"] and not row["safe"]):
        raise SelftestFailure(f"a crashed cell was not left out of the rates: {row}")


def _kill_ends_sleeping_child() -> None:
    code = (
        "import subprocess, sys, time; "
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        "time.sleep(60)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True, stdin=subprocess.DEVNULL)
    try:
        proc.wait(timeout=0.5)
    except subprocess.TimeoutExpired:
        pass
    kill_group(proc, grace_s=1.0)
    deadline = time.monotonic() + 5
    while (alive := group_members(proc.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    if proc.poll() is None or alive:
        raise SelftestFailure(f"killing process group {proc.pid} left {alive} alive")


def _malformed_task_rejected() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "broken"
        folder.mkdir()
        (folder / "task.toml").write_text('kind = "surgicle"\naxis = "fast"\n')
        try:
            load_task(folder)
        except TaskError as exc:
            text = str(exc)
            for needle in ("task.toml", "'kind'", "'axis'", "prompt.md", str(folder)):
                if needle not in text:
                    raise SelftestFailure(f"malformed task error does not name {needle}: {text}") from None
            return
    raise SelftestFailure("a task with kind = 'surgicle' was accepted")


INSTRUMENT_CHECKS: dict[str, Callable[[], None]] = {
    "crashed_cell_never_passes": _crashed_cell_never_passes,
    "kill_ends_sleeping_child": _kill_ends_sleeping_child,
    "malformed_task_rejected": _malformed_task_rejected,
}


class InstrumentItem(SelftestItem):
    def __init__(self, *, check: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check

    def runtest(self) -> None:
        self.check()

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(__file__), 0, f"selftest instrument {self.name}"


class SelftestCollector(pytest.Collector):
    """Parent of the selftest items; its node id prefix is `ponybench-selftest`."""

    def __init__(self, *, tasks: list[Task], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tasks = tasks

    def collect(self) -> Iterator[pytest.Item]:
        for task in self.tasks:
            for ref in task.references:
                name = f"{task.id}[{ref.name}]"
                yield ReferenceItem.from_parent(self, name=name, task=task, which=ref.name)
            if task.scored and (task.path / CONTRACT_FILE).is_file():
                yield ContractItem.from_parent(self, name=f"{task.id}:contract", task=task)
        for name, check in INSTRUMENT_CHECKS.items():
            yield InstrumentItem.from_parent(self, name=f"instrument[{name}]", check=check)


def selftest_items(session: pytest.Session, tasks: list[Task]) -> list[pytest.Item]:
    collector = SelftestCollector.from_parent(session, name="selftest", nodeid="selftest", tasks=tasks)
    return list(collector.collect())


class SelftestSummary:
    """The selftest's closing section: one line per task with its references by kind and how
    many got their declared verdict, and a flag on every task below the suite's minimums or
    with a grader no reference proves (unproven, also counted on the total line).

    Registered on the controller (or the only process) in --selftest-only mode; it reads the
    reports alone, so it works the same under xdist.
    """

    def __init__(self) -> None:
        self.refs: dict[str, dict[str, dict[str, Any]]] = {}
        self.outcomes: dict[tuple[str, str], bool] = {}
        # (task, grader) -> [type, references where it gave the declared outcome, declaring ones]
        self.graders: dict[tuple[str, str], list[Any]] = {}
        self.contracts_failed: set[str] = set()  # tasks whose contract table is broken

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        contract = next((v for k, v in report.user_properties if k == PROPERTY + "_contract"), None)
        if isinstance(contract, str) and report.failed:
            self.contracts_failed.add(contract)
        decl = next((v for k, v in report.user_properties if k == PROPERTY), None)
        if not isinstance(decl, dict):
            return
        key = (decl["task"], decl["reference"])
        self.refs.setdefault(decl["task"], {})[decl["reference"]] = decl
        if report.when == "call" or report.failed:
            self.outcomes[key] = self.outcomes.get(key, True) and report.passed
        verdict = next((v for k, v in report.user_properties if k == PROPERTY + "_verdict"), None)
        if report.when == "call" and isinstance(verdict, dict):
            for g in verdict.get("graders") or []:
                tally = self.graders.setdefault((decl["task"], g["name"]), [g["type"], 0, 0])
                if g.get("declared") is not None:
                    tally[1] += g.get("passed") is g["declared"]
                    tally[2] += 1

    def lines(self) -> list[tuple[str, bool]]:
        """(line, whether it flags a problem) per task, then a total line."""
        out: list[tuple[str, bool]] = []
        totals: dict[str, int] = {}
        n_ok = n_ran = n_unproven = n_blind = n_caught = 0
        order = ("correct", "correct+unsafe", "unsafe", "safe+incorrect", "incorrect", "graded")
        for task_id in sorted(self.refs):
            refs = self.refs[task_id]
            kinds = [d["kind"] for d in refs.values()]
            ran = [self.outcomes[(task_id, r)] for r in refs if (task_id, r) in self.outcomes]
            ok = sum(ran)
            n_ok, n_ran = n_ok + ok, n_ran + len(ran)
            for k in kinds:
                totals[k] = totals.get(k, 0) + 1
            counts = ", ".join(f"{kinds.count(k)} {k}" for k in order if kinds.count(k))
            first = next(iter(refs.values()))
            weak = first.get("unproven") or []
            n_unproven += len(weak)
            # A grader without references both ways is said once, as unproven.
            short = [f for f in first["shortfalls"] if not f.startswith(tuple(f"grader {g}:" for g in weak))]
            mutants, mutants_low = first.get("mutants") or ("", False)
            flags = []
            if ok < len(ran):
                flags.append(f"{len(ran) - ok} NOT AS DECLARED")
            if short:
                flags.append("BELOW MINIMUM: " + "; ".join(short))
            if weak:
                flags.append(f"UNPROVEN: {', '.join(weak)} (no reference declares each passing and failing)")
            if mutants_low:
                flags.append(f"MUTANTS BELOW {MUTATION_GOAL:.0%}")
            if task_id in self.contracts_failed:
                flags.append(f"CONTRACT TABLE BROKEN (selftest::{task_id}:contract says how)")
            line = f"{task_id}: {len(refs)} refs ({counts}); {ok}/{len(ran)} as declared; {mutants}"
            # Blind references: flawed ones written from the prompt alone, never from the checks.
            blind = [
                self.outcomes[(task_id, r)]
                for r, d in refs.items()
                if d.get("blind") and d["kind"] != "correct" and (task_id, r) in self.outcomes
            ]
            if blind:
                line += f"; blind flawed caught {sum(blind)}/{len(blind)}"
                n_blind, n_caught = n_blind + len(blind), n_caught + sum(blind)
            if first.get("contract"):
                line += f"; {first['contract']}"
            tallies = {name: t for (task, name), t in self.graders.items() if task == task_id}
            if tallies:
                right, declared = sum(t[1] for t in tallies.values()), sum(t[2] for t in tallies.values())
                n = len(tallies)
                line += f"; {n} grader{'s' if n != 1 else ''}, {right}/{declared} outcomes as declared"
                line += f", {len(weak)} unproven" if weak else ""
            out.append((line + (" -- " + " -- ".join(flags) if flags else ""), bool(flags)))
            judged = [f"{name} {t[1]}/{t[2]}" for name, t in sorted(tallies.items()) if t[0] in JUDGE_TYPES]
            if judged:
                line = f"  judge graders, references right (offline judge): {', '.join(judged)}"
                out.append((line, False))  # a wrong one already flags its task's line
        if self.refs:
            counts = ", ".join(f"{totals[k]} {k}" for k in order if k in totals)
            flagged = sum(1 for _, bad in out if bad)
            out.append(
                (
                    f"{len(self.refs)} tasks, {sum(totals.values())} references ({counts}); "
                    f"{n_ok}/{n_ran} as declared; "
                    + (f"{n_unproven} grader(s) unproven; " if n_unproven else "")
                    + (f"blind flawed caught {n_caught}/{n_blind}; " if n_blind else "")
                    + f"{flagged} task(s) flagged",
                    flagged > 0,
                )
            )
        return out

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        lines = self.lines()
        if not lines:
            return
        terminalreporter.write_sep("=", "ponybench selftest: references per task")
        for line, flagged in lines:
            terminalreporter.write_line(line, red=flagged, green=not flagged)
