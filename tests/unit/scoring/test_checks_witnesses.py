"""The scorer's two witnesses, on recorded events: the probe's lines and pytest's exit status
must agree, and the checks the task's files define must all be accounted for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.isolation.sandbox import SandboxResult
from pytest_ponybench.scoring.checks import checks_of, expected_checks

KEY = "k3y"
A, B = "test_correct.py::test_a", "test_safe.py::test_b"


def run(tmp_path: Path, code: int | None, *, timed_out: bool = False) -> SandboxResult:
    (tmp_path / "stderr.txt").write_text("last words\n")
    return SandboxResult(code, timed_out, 1.0, tmp_path / "stdout.txt", tmp_path / "stderr.txt", ())


def events(*outcomes: tuple[str, str], finish: int | None) -> list[dict[str, Any]]:
    evs: list[dict[str, Any]] = [{"event": "collected", "nodeids": [n for n, _ in outcomes]}]
    for nodeid, outcome in outcomes:
        evs += [
            {"event": "start", "nodeid": nodeid},
            {"event": "report", "nodeid": nodeid, "when": "call", "outcome": outcome, "message": ""},
        ]
    if finish is not None:
        evs.append({"event": "finish", "exitstatus": finish})
    return [{**e, "key": KEY} for e in evs]


def session(checks: list[Any]) -> str | None:
    found = [c for c in checks if c.nodeid == "session"]
    return f"{found[0].outcome}: {found[0].message}" if found else None


@pytest.mark.parametrize(
    ("outcomes", "finish", "code", "why"),
    [
        (("passed", "passed"), 0, 0, None),
        (("failed", "passed"), 1, 1, None),
        (("passed", "skipped"), 0, 0, None),  # honest; the skip fails its axis elsewhere
        (("passed", "passed"), 1, 1, "pytest exited 1 but no check failed"),
        (("failed", "passed"), 0, 0, f"pytest exited 0 although {A} failed"),
        (("passed", "passed"), 0, 1, "pytest reported exit status 0 but the check process exited with 1"),
        (("passed", "passed"), None, 0, "exited with status 0 without pytest finishing"),
        (("passed", "passed"), 3, 3, "pytest exited with status 3 (internal error)"),
        (("passed", "passed"), 5, 5, "pytest exited with status 5 (no check was collected)"),
        (("failed", "passed"), 1, 120, None),  # pytest finished, then stdout could not flush
        (
            ("passed", "passed"),
            0,
            120,
            "pytest reported exit status 0 but the check process exited with 120",
        ),
    ],
)
def test_exit_status_and_events_must_agree(
    tmp_path: Path, outcomes: tuple[str, str], finish: int | None, code: int, why: str | None
) -> None:
    checks = checks_of(
        events((A, outcomes[0]), (B, outcomes[1]), finish=finish), run(tmp_path, code), 5, (), KEY
    )
    said = session(checks)
    if why is None:
        assert said is None
    else:
        assert said is not None and said.startswith("inconsistent: the checks did not run honestly")
        assert why in said


def test_a_line_without_the_key_is_foreign_and_cannot_undo_a_failure(tmp_path: Path) -> None:
    evs = events((A, "failed"), finish=1)
    evs.insert(-1, {"event": "report", "nodeid": A, "when": "call", "outcome": "passed", "key": "guess"})
    checks = checks_of(evs, run(tmp_path, 1), 5, (), KEY)
    assert {c.nodeid: c.outcome for c in checks}[A] == "failed"
    assert "1 line(s) on the probe's channel did not come from the probe" in (session(checks) or "")


def test_a_later_pass_never_overrides_an_earlier_failure(tmp_path: Path) -> None:
    evs = events((A, "failed"), finish=1)
    evs.insert(-1, {"event": "report", "nodeid": A, "when": "teardown", "outcome": "passed", "key": KEY})
    checks = checks_of(evs, run(tmp_path, 1), 5, (), KEY)
    assert {c.nodeid: c.outcome for c in checks}[A] == "failed" and session(checks) is None


def test_a_tampered_report_is_inconsistent_even_when_the_run_timed_out(tmp_path: Path) -> None:
    evs = events((A, "passed"), finish=None)
    said = "report says passed although call raised X"
    evs.append({"event": "tampered", "nodeid": A, "message": said, "key": KEY})
    checks = checks_of(evs, run(tmp_path, None, timed_out=True), 5, (), KEY)
    assert said in (session(checks) or "")


def test_a_defined_check_never_reported_did_not_run(tmp_path: Path) -> None:
    # Forged "collected" lists only a check of its own: the task's real check is missing.
    evs = events(("test_correct.py::test_fake", "passed"), finish=0)
    checks = checks_of(evs, run(tmp_path, 0), 5, [A], KEY)
    assert {c.nodeid: c.outcome for c in checks}[A] == "not run"
    assert f"pytest exited 0 although {A} never ran" in (session(checks) or "")


def test_a_crash_blames_the_running_check_with_no_inconsistency(tmp_path: Path) -> None:
    evs = events((A, "passed"), finish=None) + [{"event": "start", "nodeid": B, "key": KEY}]
    checks = checks_of(evs, run(tmp_path, -9), 5, (), KEY)
    assert {c.nodeid: c.outcome for c in checks}[B] == "crashed" and session(checks) is None


def test_expected_checks_reads_functions_and_methods_and_skips_fixtures() -> None:
    source = b"""\
import pytest

@pytest.fixture
def test_data():
    return 1

def test_one(test_data):
    pass

async def test_two():
    pass

def helper():
    pass

class TestGroup:
    def test_three(self):
        pass

    def not_a_test(self):
        pass

class Helper:
    def test_ignored(self):
        pass

if True:
    def test_nested():
        pass
"""
    files = {"test_x.py": source, "conftest.py": b"def test_not_here(): pass\n", "test_bad.py": b"def ("}
    assert expected_checks(files) == [
        "test_x.py::test_one",
        "test_x.py::test_two",
        "test_x.py::TestGroup::test_three",
    ]
