"""Each arm's health across its cells: what of it failed, in how many of its cells.

A cell's record lists what of its arm failed in its session (`arm_errors`: a hook that crashed,
an MCP server that did not start, a skill that did not load, ...). Here they are counted per arm
and problem over the latest attempt of each cell: one line each, with the first cell's words
("careful: hook SessionStart failed in 8 of 8 cells (exit 1): ... Error: Cannot find module
..."), for the terminal, `ponybench summary` and the report. `--fail-on arm_errors` fails on
any of them.

Pure functions: records in, lines out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pytest_ponybench.core.armhealth import ArmError, from_record
from pytest_ponybench.core.records import Record, latest

__all__ = ["GATE_RULE", "Problem", "gate_fails", "health_lines", "observed", "problems"]

GATE_RULE = "arm_errors"  # --fail-on arm_errors: any cell whose arm failed in its session
_VERB = {
    "plugin": "was not loaded",
    "hook": "failed",
    "mcp": "did not start",
    "skill": "did not load",
    "agent": "did not load",
    "command": "did not load",
}


@dataclass(frozen=True)
class Problem:
    """One thing of one arm that failed: in `cells` of its `of` observed cells, as the first
    of them said it."""

    arm: str
    first: ArmError
    cells: int
    of: int

    def text(self) -> str:
        """ "hook SessionStart failed in 8 of 8 cells (exit 1): <its stderr by its ends>" """
        e = self.first
        what = "MCP server" if e.kind == "mcp" else e.kind
        head = f"{what} {e.name} {_VERB.get(e.kind, 'failed')} in {self.cells} of {self.of} cells"
        if e.kind == "hook":
            how, _, said = e.message.partition(": ")
            return f"{head} ({how}): {said}" if said else f"{head} ({how})"
        return f"{head}: {e.message}"


def observed(rec: Record) -> bool:
    """Whether the record says its arm's health (its session ran and was read)."""
    return isinstance(rec.get("arm_errors"), list)


def _arm_of(rec: Record) -> str:
    """The arm a cell ran: in two runs compared (`verdict.compare_runs`), its arm is the run's
    label and its own arm is kept beside it, so it is said as `mine in r2`."""
    own = rec.get("compare_arm")
    return str(rec.get("arm")) if own is None else f"{own} in {rec.get('arm')}"


def problems(records: Iterable[Record]) -> list[Problem]:
    """Every (arm, problem) of the latest attempt of each cell, in arm order and then in the
    order the cells met them."""
    cells: dict[str, int] = {}
    seen: dict[tuple[str, str, str], list[ArmError]] = {}
    for rec in latest(records):
        if not observed(rec):
            continue
        arm = _arm_of(rec)
        cells[arm] = cells.get(arm, 0) + 1
        listed = rec.get("arm_errors")
        assert isinstance(listed, list)
        for error in {(e.kind, e.name): e for e in map(from_record, listed) if e is not None}.values():
            seen.setdefault((arm, error.kind, error.name), []).append(error)
    found = [Problem(arm, errors[0], len(errors), cells[arm]) for (arm, _k, _n), errors in seen.items()]
    return sorted(found, key=lambda p: p.arm)


def health_lines(records: Iterable[Record]) -> list[str]:
    """One line per arm and problem: `arm careful: hook SessionStart failed in 8 of 8 cells ...`."""
    return [f"arm {p.arm}: {p.text()}" for p in problems(records)]


def gate_fails(records: Iterable[Record]) -> tuple[list[str], bool]:
    """The gate rule `arm_errors`: (one line per arm and problem, whether any record says its
    arm's health at all; a run where none does measured nothing for the rule)."""
    records = list(records)
    return [f"{GATE_RULE}: {line}" for line in health_lines(records)], any(map(observed, records))
