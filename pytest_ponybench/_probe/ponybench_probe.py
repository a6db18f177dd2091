"""pytest plugin loaded into the sandboxed check run: one JSON line per test event, flushed.

Written as each test starts and ends, so a run that agent code crashes or a timeout kills
still tells the harness which checks passed and which one was running.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

_OUT = os.environ.get("PONYBENCH_PROBE_OUT", "")

# The agent's modules become importable only now, after pytest, its dependencies and this
# module's own imports are loaded, so a workspace file cannot replace any of them.
if os.environ.get("PONYBENCH_WORKSPACE"):
    sys.path.insert(0, os.environ["PONYBENCH_WORKSPACE"])


def _emit(event: dict[str, Any]) -> None:
    if not _OUT:
        return
    line = (json.dumps(event) + "\n").encode()
    fd = os.open(_OUT, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def _message(report: Any) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", None):
        text = str(crash.message)
    elif isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
        text = str(report.longrepr[2])
    else:
        text = str(report.longrepr or "")
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    # The first line carries the assertion's message; object addresses would make the reason
    # differ between identical runs.
    return re.sub(r" at 0x[0-9a-fA-F]+", "", lines[0])[:300] if lines else ""


def pytest_collection_finish(session: Any) -> None:
    _emit({"event": "collected", "nodeids": [item.nodeid for item in session.items]})


def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    _emit({"event": "start", "nodeid": nodeid})


def pytest_runtest_logreport(report: Any) -> None:
    if report.when == "call" or report.outcome != "passed":
        _emit(
            {
                "event": "report",
                "nodeid": report.nodeid,
                "when": report.when,
                "outcome": report.outcome,
                "message": _message(report) if report.failed else "",
            }
        )


def pytest_collectreport(report: Any) -> None:
    if report.failed:
        _emit({"event": "collect", "nodeid": report.nodeid, "outcome": "failed", "message": _message(report)})


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    _emit({"event": "finish", "exitstatus": int(exitstatus)})
