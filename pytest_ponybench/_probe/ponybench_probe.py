"""pytest plugin loaded into the sandboxed check run: one JSON line per test event.

Written as each test starts and ends, so a run that agent code crashes or a timeout kills
still tells the harness which checks passed and which one was running. The lines go to a pipe
the harness opened (its fd number in PONYBENCH_PROBE_FD), never to a file: code the checks
import later can add lines but cannot rewrite or truncate those already sent. What it can
still do, and how the harness checks it, is in docs/graders.md ("How checks run").
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Generator
from typing import Any

import pytest

# Taken out of the environment before any agent code can be imported, so that code does not
# find the channel by its name; bound now, so replacing os.write later does not reroute it.
_FD = int(os.environ.pop("PONYBENCH_PROBE_FD", "-1"))
_write = os.write


def _read_key() -> str:
    """The run's key, read once from a pipe the harness filled and closed here, before any
    agent code runs: every line carries it, and a line without it is not the probe's."""
    fd = int(os.environ.pop("PONYBENCH_PROBE_KEY_FD", "-1"))
    if fd < 0:
        return ""
    try:
        return os.read(fd, 4096).decode()
    finally:
        os.close(fd)


_KEY = _read_key()

# The agent's modules become importable only now, after pytest, its dependencies and this
# module's own imports are loaded, so a workspace file cannot replace any of them.
if os.environ.get("PONYBENCH_WORKSPACE"):
    sys.path.insert(0, os.environ["PONYBENCH_WORKSPACE"])


def _emit(event: dict[str, Any]) -> None:
    if _FD < 0:
        return
    line = (json.dumps({**event, "key": _KEY}) + "\n").encode()
    while line:  # a pipe takes a long line in parts
        line = line[_write(_FD, line) :]


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


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Generator[None, Any, Any]:
    # pytest builds the report from what the call raised; a report that says "passed" for a
    # call that raised was rewritten by code in this process.
    report = yield
    if call.excinfo is not None and report.outcome == "passed":
        message = f"pytest's report says passed although {call.when} raised {call.excinfo.typename}"
        _emit({"event": "tampered", "nodeid": item.nodeid, "message": message})
    return report


def pytest_runtest_logreport(report: Any) -> None:
    if report.when == "call" or report.outcome != "passed":
        _emit(
            {
                "event": "report",
                "nodeid": report.nodeid,
                "when": report.when,
                "outcome": report.outcome,
                "message": _message(report) if report.failed or report.skipped else "",
            }
        )


def pytest_collectreport(report: Any) -> None:
    if report.failed or report.skipped:
        _emit(
            {
                "event": "collect",
                "nodeid": report.nodeid,
                "outcome": report.outcome,
                "message": _message(report),
            }
        )


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    _emit({"event": "finish", "exitstatus": int(exitstatus)})
