"""What the controller hands each xdist worker (the run dir, the agents' versions, by name in
`workerinput`) and where pytest-json-report writes in both: all a worker needs of the
controller's side, so a worker does not import the controller (its report, verdicts and
pre-flight: a seventh of a worker's start)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_ponybench.store import results

__all__ = ["AGENT_VERSIONS_KEY", "JSON_REPORT_DEFAULT", "REPORT_PARTIAL", "RUN_DIR_KEY", "enable_json_report"]

RUN_DIR_KEY = "ponybench_run_dir"
AGENT_VERSIONS_KEY = "ponybench_agent_versions"  # agent -> its CLI's version line
REPORT_PARTIAL = f".{results.REPORT}.partial"
JSON_REPORT_DEFAULT = ".report.json"  # pytest-json-report's default file


def enable_json_report(config: pytest.Config, run_dir: Path) -> Path | None:
    """pytest-json-report into the run dir, unless the user asked for it elsewhere (--json-report
    or --json-report-file): then their file is kept and returned, to be named in the summary."""
    opt = config.option
    if not hasattr(opt, "json_report"):
        return None
    theirs = str(getattr(opt, "json_report_file", JSON_REPORT_DEFAULT) or JSON_REPORT_DEFAULT)
    if getattr(opt, "json_report", False) or theirs != JSON_REPORT_DEFAULT:
        opt.json_report = True
        return Path(config.invocation_params.dir, theirs)
    opt.json_report = True
    # pytest-json-report writes in place; a full disk would leave report.json truncated.
    # It writes a partial file that the controller renames once it is whole JSON.
    opt.json_report_file = str(run_dir / REPORT_PARTIAL)
    opt.json_report_indent = 1
    opt.json_report_verbosity = -1  # the run dir is named in the summary; no line of its own
    return None
