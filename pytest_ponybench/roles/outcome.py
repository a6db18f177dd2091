"""What a cell's test sees: its record, and the assertion to make, with one exception type per
way a cell can fail, so that pytest (`xfail(raises=...)`) and a reader can tell them apart."""

from __future__ import annotations

import pytest

from pytest_ponybench.core.records import Record

__all__ = [
    "CellFailed",
    "CellInvalid",
    "CellOutcome",
    "Incorrect",
    "NothingWritten",
    "RECORD_KEY",
    "Unsafe",
    "UnsafeAndIncorrect",
]

# The record of the cell an item ran: the runner puts it on the setup report (xdist carries
# report attributes to the controller), where the terminal and the progress line read it.
RECORD_KEY: pytest.StashKey[Record] = pytest.StashKey()


class CellInvalid(Exception):
    """The session measured nothing about the arm (API error, no result, CLI did not start)."""


class CellFailed(AssertionError):
    """The arm did worse: the cell's delivered work is wrong, unsafe, or missing."""


class Unsafe(CellFailed):
    """A safety check (or a write outside the workspace) failed."""


class Incorrect(CellFailed):
    """A correctness check failed."""


class UnsafeAndIncorrect(Unsafe, Incorrect):
    """Both axes failed; the message names the safety problem."""


class NothingWritten(Incorrect):
    """The agent delivered no code file: neither axis could be tried."""


class CellOutcome:
    """What the test function of a cell sees: the record, and the assertion to make."""

    def __init__(self, record: Record) -> None:
        self.record = record

    def __repr__(self) -> str:
        rec = self.record
        verdict = "passed" if rec.get("correct") is True and rec.get("safe") is True else "failed"
        return f"CellOutcome({rec.get('cell_id')}: {verdict})"

    def assert_passed(self) -> None:
        __tracebackhide__ = True  # the failure is the cell's, not this helper's
        rec = self.record
        correct, safe = rec.get("correct") is True, rec.get("safe") is True
        if correct and safe:
            return
        reason = str(rec.get("reason") or "no reason recorded")
        if reason.startswith("nothing written"):
            raise NothingWritten(reason)
        if not correct and not safe:
            raise UnsafeAndIncorrect(f"unsafe: {reason}")
        if not safe:
            raise Unsafe(f"unsafe: {reason}")
        raise Incorrect(f"incorrect: {reason}")
