"""The terminal role: the running spend line and the end-of-session summary, on the controller only."""

from __future__ import annotations

from typing import Any

import pytest

from . import confine, report, results, sandbox, spend, verdict, weather
from .config import Mode
from .controller import Controller


class SummaryReporter:
    """Prints what the run dir holds; it never computes a figure the summary commands do not."""

    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        self.spent_usd = 0.0

    def pytest_report_header(self) -> list[str]:
        """Said at session start: where the records go, and whether the agent is confined."""
        ctl = self.controller
        lines = [f"ponybench: {ctl.plan.mode.value} into {ctl.run_dir.path}"]
        if ctl.plan.mode is not Mode.RESCORE:
            lines.append(f"ponybench: agent {confine.status().describe()}")
        lines.append(f"ponybench: checks run with {', '.join(sandbox.jail().isolated) or 'no isolation'}")
        return lines

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """The running total, when the run has a budget."""
        budget = self.controller.plan.settings.budget_usd
        if budget is None or report.when != "setup":
            return
        for name, value in report.user_properties:
            if name == "ponybench" and isinstance(value, dict):
                self.spent_usd += float(value.get("cost_usd") or 0.0)
                tr = self.controller.config.pluginmanager.get_plugin("terminalreporter")
                if tr is not None:
                    tr.write_line(f"ponybench: spent ${self.spent_usd:.4f} of ${budget:g}")

    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int) -> None:
        ctl, tr = self.controller, terminalreporter
        path = ctl.run_dir.path
        if not path.exists():
            return
        try:
            records = ctl.run_dir.records()
            tr.write_sep("=", "ponybench summary")
            tr.write_line(report.render_table(records) or "no cell finished")
            verdicts = verdict.render_verdicts(records)
            if verdicts:
                tr.write_sep("-", "verdicts: each arm vs baseline")
                tr.write_line(verdicts)
            tr.write_line(f"run dir: {path}")
            if ctl.report_path is not None:
                tr.write_line(f"report: {ctl.report_path}")
            elif ctl.report_error is not None:
                tr.write_line(
                    f"report not written: {ctl.report_error} (try: ponybench report {path})", yellow=True
                )
            tr.write_line(self._spend_line(spend.Ledger(path, None).state()["spent_usd"]))
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

    def _spend_line(self, spent: float) -> str:
        ctl = self.controller
        budget = ctl.plan.settings.budget_usd
        line = f"spend: ${spent:.4f}" + (f" of a ${budget:g} budget" if budget else "")
        if ctl.skipped:
            line += f"; {len(ctl.skipped)} cell(s) not started (budget)"
        if not ctl.plan.paid:  # every model offline: the spend is notional
            line += (
                " (offline models: the CLI's price for the offline server's token counts; nothing was paid)"
            )
        return line
