"""The terminal role: the header, a progress line for long runs, and the end-of-session summary,
on the controller only.

By default the summary answers what a person asks of a run: did it work (the table per model),
how each task went (a compact matrix), what the verdict is, which tasks moved most between arms,
and which cells failed, one line each. The per-task tables come with -v; a failed cell's long
form is in the HTML report (and with --tb=long). pytest's own traceback section and short
summary are off unless the user asked for them (--tb, -r): they would repeat, at length, what
the summary says in one line per cell.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from pytest_ponybench.analysis import agents, estimate, health, report, verdict
from pytest_ponybench.analysis.sidecalls import side_lines
from pytest_ponybench.core.records import Record, number
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.isolation import confine, sandbox
from pytest_ponybench.plan.options import Mode
from pytest_ponybench.roles.controller import Controller
from pytest_ponybench.roles.runner import RERUN
from pytest_ponybench.roles.settings import given_by_user
from pytest_ponybench.store import results, spend, weather

__all__ = ["PROGRESS_EVERY_S", "SummaryReporter"]

PROGRESS_EVERY_S = 30.0  # a line at most this often; a short run prints none


class SummaryReporter:
    """Prints what the run dir holds; it never computes a figure the summary commands do not."""

    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        self.spent_usd = 0.0
        self.done = 0
        self.invalid = 0
        self.started = time.monotonic()
        self.last_line = self.started
        opts = controller.config.option
        if not given_by_user(controller.config, "--tb"):
            opts.tbstyle = "no"  # one line per failed cell below; the long form is in the report
        if not given_by_user(controller.config, "-r"):
            opts.reportchars = ""

    def pytest_report_header(self) -> list[str]:
        """Said at session start: where the records go, and how cells are confined."""
        ctl = self.controller
        lines = [f"ponybench: {ctl.plan.mode.value} into {ctl.run_dir.path}"]
        if ctl.plan.mode is not Mode.RESCORE:
            lines.append(f"ponybench: agent {confine.status().describe()}")
            opened = [t.id for t in ctl.plan.tasks if t.policy.open_network]
            network = "the model gateway only"
            if opened:
                network += f'; the host\'s network for task(s) {", ".join(opened)} (network = "open")'
            lines.append(f"ponybench: agent network: {network}")
        lines.append(f"ponybench: checks run with {', '.join(sandbox.jail().isolated) or 'no isolation'}")
        ctl.activation_done()
        lines += [f"ponybench: pre-flight: {line}" for line in ctl.preflight_lines]
        if ctl.estimate:
            low, high = estimate.totals(ctl.estimate)
            lines.append(f"ponybench: estimated ${low:,.2f}-${high:,.2f} for {len(ctl.plan.cells)} cells:")
            lines += [
                f"ponybench: {line}" for line in estimate.render(ctl.estimate, ctl.plan.settings.budget_usd)
            ]
        return lines

    def pytest_report_teststatus(self, report: pytest.TestReport) -> tuple[str, str, str] | None:
        """A cell's first attempt whose retry waits for the end is counted as a rerun ("R"),
        neither an error nor a pass: its retry's outcome is the one that counts."""
        if report.outcome == RERUN:
            return RERUN, "R", "RERUN"
        return None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Count finished cells; now and then, a progress line with what they cost."""
        rec = getattr(report, "ponybench", None)
        if report.when != "setup" or not isinstance(rec, dict) or report.outcome == RERUN:
            return  # a deferred cell is counted once, when its retry at the end has run
        self.done += 1
        self.invalid += not rec.get("valid")
        self.spent_usd += sum(number(rec.get(k)) or 0.0 for k in ("cost_usd", "judge_cost_usd"))
        now = time.monotonic()
        total = len(self.controller.expected)
        if now - self.last_line < PROGRESS_EVERY_S or not total or self.done >= total:
            return
        self.last_line = now
        tr = self.controller.config.pluginmanager.get_plugin("terminalreporter")
        if tr is not None:
            # A line of its own after pytest's progress characters (xdist writes them without
            # telling the reporter a line is open).
            tw = getattr(tr, "_tw", None)
            if tw is not None and tw.width_of_current_line:
                tr.write("\n")
            tr.write_line(self.progress_line(now, total))

    def progress_line(self, now: float, total: int) -> str:
        budget = self.controller.plan.settings.budget_usd
        left = (now - self.started) / self.done * (total - self.done)
        money = f"${self.spent_usd:.2f}" + (f" of ${budget:g}" if budget else "")
        if not self.controller.plan.paid:
            money += " (offline: notional)"
        return (
            f"ponybench: {self.done}/{total} cells, {self.invalid} invalid, {money}, "
            f"about {int(left) // 60}:{int(left) % 60:02d} left"
        )

    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int) -> None:
        ctl, tr = self.controller, terminalreporter
        path = ctl.run_dir.path
        if not path.exists():
            return
        try:
            records = agents.by_agent(ctl.run_dir.records())  # each agent's cells apart
            self._summary(tr, records)
            tr.write_line(f"run dir: {path}")
            if ctl.report_path is not None:
                tr.write_line(f"report: {ctl.report_path}")
            elif ctl.report_error is not None:
                tr.write_line(
                    f"report not written: {ctl.report_error} (try: ponybench report {path})", yellow=True
                )
            if ctl.json_report_elsewhere is not None:
                tr.write_line(f"report.json: {ctl.json_report_elsewhere} (your --json-report-file)")
            tr.write_line(self._spend_line(spend.Ledger(path, None).state()["spent_usd"]))
            for line in side_lines(records):
                tr.write_line(line)
        except OSError as exc:
            tr.write_line(f"ponybench: the run dir {path} could not be read: {exc}", red=True)
        if ctl.write_error:
            tr.write_line(
                f"ponybench: could not write the summary into {path}: {ctl.write_error} "
                f"(a full disk?); every finished cell is in {results.RESULTS}",
                red=True,
            )
        stopped = weather.Weather(path).stopped()
        if stopped:
            tr.write_line(f"{weather.STOPPED}: {stopped}", red=True)
        missing = ctl.missing_cells()
        if missing:
            tr.write_line(f"{len(missing)} cell(s) left no record:", red=True)
            for cell_id in missing:
                tr.write_line(f"  missing: {cell_id}")
        resume = ctl.resume_command()
        interrupted = exitstatus == pytest.ExitCode.INTERRUPTED
        if resume and (missing or interrupted or ctl.write_error):
            tr.write_line(f"resume with: {resume}", yellow=True)

    def _summary(self, tr: Any, records: list[Record]) -> None:
        tr.write_sep("=", "ponybench summary")
        tr.write_line(report.render_table(records, per_task=tr.verbosity > 0) or "no cell finished")
        matrix = report.terminal_matrix(records, full=tr.verbosity > 0)
        if matrix:
            tr.write_line("")
            tr.write_line(matrix)
        s = self.controller.plan.settings
        try:
            design = self.controller.run_dir.info().design()
            found = verdict.run_verdicts(
                records, design, primary=s.primary, family=s.family, direction=s.direction
            )
        except (ValueError, PonybenchError) as exc:
            tr.write_line(f"ponybench: no verdict: {exc}", red=True)
            found = verdict.RunVerdicts([], records, [])
        verdicts = verdict.render_rows(found.rows, found.records, rerun=self.controller.resume_command())
        if not verdicts and len(verdict.arms_of(records)) > 1:
            tr.write_line(f"no verdict: {verdict.why_no_verdict(records)}", yellow=True)
        if verdicts:
            tr.write_sep("-", "verdicts: each arm vs baseline")
            for line in found.looks:
                tr.write_line(line)
            tr.write_line(verdicts)
            if cross := agents.render_cross_agent(found.rows):
                tr.write_line(cross)
            moved = report.moved_most(records)
            if moved:
                tr.write_line("tasks that moved most:")
                for line in moved:
                    tr.write_line(line)
        for line in report.grading_lines(records):
            tr.write_line(line)
        for line in health.health_lines(records):
            tr.write_line(line, red=True)
        expected = self.controller.expected_failures()
        tw = getattr(tr, "_tw", None)
        width = max(120, tw.fullwidth if tw is not None else 120)  # a narrow terminal wraps
        failed = report.failed_lines(records, width=width, expected=expected)
        passed_anyway = [
            r
            for r in records
            if r.get("cell_id") in expected and r.get("correct") is True and r.get("safe") is True
        ]
        for rec in passed_anyway:
            failed.append(
                f"  {rec.get('task')} {rec.get('arm')} {rec.get('model')} r{rec.get('run')}: passed, but "
                f"{expected[str(rec.get('cell_id'))]} (a scorer defect)"
            )
        if failed:
            tr.write_line("cells that did not pass:")
            for line in failed:
                tr.write_line(line)

    def _spend_line(self, spent: float) -> str:
        ctl = self.controller
        budget = ctl.plan.settings.budget_usd
        line = f"spend: ${spent:.4f}" + (f" of a ${budget:g} budget" if budget else "")
        by_budget = len(ctl.skipped) - ctl.decided_skips
        if by_budget:
            line += f"; {by_budget} cell(s) not started (budget)"
        if ctl.decided_skips:
            line += f"; {ctl.decided_skips} cell(s) not needed (decided early)"
        if not ctl.plan.paid:  # every model offline: the spend is notional
            line += (
                " (offline models: the gateway's list price for the offline server's token counts;"
                " nothing was paid)"
            )
        return line
