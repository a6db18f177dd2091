"""Which verdict rows a run's records get: none without a baseline and another arm, and a
sequential run's at the look where it stopped (over the runs that look saw), else the fixed
design's."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pytest_ponybench.analysis import report, sequential, stats
from pytest_ponybench.analysis.stats import ArmVerdict
from pytest_ponybench.core.records import Record, is_scored

__all__ = ["RunVerdicts", "arm_verdicts", "arms_of", "run_verdicts", "why_no_verdict"]


def arms_of(records: Iterable[Record]) -> list[str]:
    """Arm names with at least one record, valid or not, baseline first: an arm whose cells
    all failed is still an arm, and its block says so."""
    return report.arm_order(str(r.get("arm")) for r in records)


def arm_verdicts(
    records: Sequence[Record],
    baseline: str = "baseline",
    *,
    primary: str = stats.PRIMARY,
    family: str = "model",
    direction: str = stats.TWO_SIDED,
) -> list[ArmVerdict]:
    """stats.verdicts, but only where there is something to compare: [] when the baseline arm or
    every other arm is missing. Raises ValueError for an unknown primary, family or direction."""
    arms = arms_of(records)
    if baseline not in arms or len(arms) < 2:
        return []
    return stats.verdicts(records, baseline, primary=primary, family=family, direction=direction)


def why_no_verdict(records: Sequence[Record], baseline: str = "baseline") -> str:
    """One line: why these records give no verdict block at all."""
    arms = arms_of(records)
    if not records:
        return "no cell finished"
    if baseline not in arms:
        return f"no arm named {baseline!r} to compare with (arms: {', '.join(arms)})"
    if len(arms) < 2:
        return f"only the arm {baseline!r} ran: nothing to compare it with"
    if not any(is_scored(r) or r.get(stats.SCORE) is not None for r in records):
        return (
            "no task has checks or graders: every cell is an open task's, with nothing to pass or score "
            "(give a task hidden checks or [[graders]])"
        )
    return "no model has cells of both the baseline and another arm"


@dataclass(frozen=True)
class RunVerdicts:
    """A run's verdict rows, the records they came from, and how a sequential design went."""

    rows: list[ArmVerdict]
    records: list[Record]
    looks: list[str]


def run_verdicts(
    records: Sequence[Record],
    design: tuple[sequential.Plan, Sequence[sequential.Look]] | None,
    baseline: str = "baseline",
    *,
    primary: str = stats.PRIMARY,
    family: str = "model",
    direction: str = stats.TWO_SIDED,
) -> RunVerdicts:
    """The verdicts of one run dir: a sequential run's at the look where it stopped (over the
    runs that look saw, its primary decided by the sequence), else (design None: run.json's
    `sequential`, through store/runinfo.py) the fixed design's, its primary tested in
    `direction` (run.json's `direction`, or an override). Raises ValueError for a direction
    asked of a sequential design (two-sided)."""
    if design is None or not design[1]:
        rows = arm_verdicts(records, baseline, primary=primary, family=family, direction=direction)
        return RunVerdicts(rows, list(records), [])
    if direction != stats.TWO_SIDED:
        raise ValueError(f"direction {direction}: the run's sequential design is two-sided")
    plan, looks = design
    seen = sequential.seen_by(records, looks)
    return RunVerdicts(
        sequential.final_verdicts(seen, plan, looks), seen, sequential.describe_looks(looks, plan)
    )
