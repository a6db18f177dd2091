"""The sequential role (`--until-decided`): a look after every complete run of the grid, and a
stop once every comparison is settled.

Registered on the process that owns the terminal, beside the controller. The grid holds up to
`--max-runs` runs per task in run-major order; when every cell of the next run has ended (run,
skipped, or invalid after its retries), `analysis.sequential.decide` takes a look at the runs
so far. Each look is written into run.json (the plan and every look: what `--resume` continues
from); once the design is done, `RunDir.stop` tells every worker to start no more cells, and
the cells left are skipped, not missing. Cells of a later run that were already running finish
and are kept, but the verdict is the last look's.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_ponybench.analysis import sequential
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.roles.collection import cell_of
from pytest_ponybench.roles.controller import Controller
from pytest_ponybench.store.runinfo import RunInfo

__all__ = ["SequentialLooks"]


class SequentialLooks:
    def __init__(self, controller: Controller) -> None:
        plan = controller.plan.sequential
        assert plan is not None  # registered only for --until-decided
        self.controller, self.plan = controller, plan
        self.looks: list[sequential.Look] = []
        self.ended: set[str] = set()
        self.lines: list[str] = []
        earlier = controller.plan.previous_info
        if earlier is not None:
            self._continue(earlier)

    def _continue(self, run: RunInfo) -> None:
        """A resumed run keeps its design and its looks; its finished cells have ended."""
        if run.sequential is None:
            return
        plan, looks = run.sequential
        if plan != self.plan:
            raise PonybenchError(
                f"--resume: the run's sequential design {plan.to_json()} differs from this one's "
                f"{self.plan.to_json()}; a design may not change mid-run"
            )
        self.looks = list(looks)
        previous = self.controller.plan.previous
        if previous is not None:
            self.ended = {str(r.get("cell_id")) for r in previous.records()}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """A cell ends with its setup (the fixture runs the cell there, or skips it)."""
        if report.when != "setup":
            return
        cell = cell_of(self.controller.plan, report.nodeid)
        if cell is None:
            return
        self.ended.add(cell.id)
        self._look_while_complete()

    def _look_while_complete(self) -> None:
        while not self.done:
            runs = (self.looks[-1].runs if self.looks else 0) + self.plan.block_runs
            block = self._cells_up_to(runs)
            if not block or not block <= self.ended:
                return
            records = [r for r in self.controller.run_dir.records() if _before(r, runs)]
            try:
                step = sequential.decide(records, self.plan, self.looks, runs=runs)
            except ValueError as exc:  # nothing to compare (one arm, no valid cell): no look
                self.lines.append(f"no look at {runs} run(s) per task: {exc}")
                return
            self.looks.append(step.look)
            self.controller.run_dir.update(sequential=(self.plan, tuple(self.looks)))
            self._say(sequential.describe_looks([step.look], self.plan)[0])
            if step.done:
                self.controller.run_dir.stop(
                    f"decided at look {step.look.number} ({step.look.runs} runs per task)"
                )

    @property
    def done(self) -> bool:
        if not self.looks:
            return False
        last = self.looks[-1]
        return last.fraction >= 1.0 or all(v in sequential.SETTLED for v in last.outcomes.values())

    def _cells_up_to(self, runs: int) -> set[str]:
        """The cells this session expects of runs below `runs` (all of them ended: a look)."""
        plan = self.controller.plan
        return {c for c in self.controller.expected if (cell := plan.cell(c)) is not None and cell.run < runs}

    def _say(self, line: str) -> None:
        self.lines.append(line)
        tr = self.controller.config.pluginmanager.get_plugin("terminalreporter")
        if tr is not None:
            tw = getattr(tr, "_tw", None)
            if tw is not None and tw.width_of_current_line:
                tr.write("\n")
            tr.write_line(f"ponybench: {line}")


def _before(rec: Any, runs: int) -> bool:
    """Whether a record is of a run the look at `runs` runs per task sees."""
    run = rec.get("run")
    return isinstance(run, int) and not isinstance(run, bool) and run < runs
