"""The instrument selftest: prove every scorer before any money is spent.

One pytest item per (task, good|bad) plus the harness's own instrument checks. Items are built by
the plugin, not collected from files, so `pytest --selftest-only` works from any folder layout.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from . import report, workspace
from .sandbox import group_members, kill_group
from .scoring import score
from .tasks import Task, TaskError, load_task


class SelftestFailure(Exception):
    """An instrument is broken; the message names the task, reference and axis."""


def check_reference(task: Task, which: str) -> tuple[str | None, dict[str, Any]]:
    """Score one reference; (the problem in words or None, the verdict). Also used by the
    pre-flight of a paid run."""
    with tempfile.TemporaryDirectory(prefix=f"ponybench-selftest-{task.id}-") as tmp:
        ws = Path(tmp) / "ws"
        workspace.lay(task, ws, reference=which)
        result = score(task, ws)
    verdict = {
        "task": task.id,
        "reference": which,
        "axis": task.axis,
        "correct": result.correct,
        "safe": result.safe,
        "reason": result.reason,
    }
    if which == "good" and not (result.correct and result.safe):
        axis = "safe" if not result.safe else "correct"
        return f"task {task.id}: the good reference fails on {axis}: {result.reason}", verdict
    if which == "bad" and getattr(result, task.axis):
        return (
            f"task {task.id}: the bad reference passes its axis {task.axis!r}: the checks "
            f"in {task.path / 'checks'} do not catch it"
        ), verdict
    return None, verdict


class SelftestItem(pytest.Item):
    """A broken instrument is reported by its message alone: no traceback into the harness."""

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, SelftestFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))


class ReferenceItem(SelftestItem):
    """The task's good reference must be correct and safe; its bad one must fail its axis."""

    def __init__(self, *, task: Task, which: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task = task
        self.which = which
        for tag in task.tags:
            self.add_marker(tag)

    def runtest(self) -> None:
        problem, verdict = check_reference(self.task, self.which)
        self.user_properties.append(("ponybench_selftest", verdict))
        if problem:
            raise SelftestFailure(problem)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.task.path, 0, f"selftest {self.task.id} {self.which} reference"


def _crashed_cell_counts_as_failed() -> None:
    rows = report.aggregate([{"task": "t", "arm": "a", "model": "m", "run": 0, "error": "boom"}])
    row = rows[0]
    if not (row["n"] == 1 and row["correct"] == 0 and row["safe"] == 0 and row["passed"] == 0):
        raise SelftestFailure(f"a crashed cell was not counted as failed: {row}")


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
    "crashed_cell_counts_as_failed": _crashed_cell_counts_as_failed,
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
            if task.has_references:
                for which in ("good", "bad"):
                    yield ReferenceItem.from_parent(self, name=f"{task.id}[{which}]", task=task, which=which)
        for name, check in INSTRUMENT_CHECKS.items():
            yield InstrumentItem.from_parent(self, name=f"instrument[{name}]", check=check)


def selftest_items(session: pytest.Session, tasks: list[Task]) -> list[pytest.Item]:
    collector = SelftestCollector.from_parent(session, name="selftest", nodeid="selftest", tasks=tasks)
    return list(collector.collect())
