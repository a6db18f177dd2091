"""Which verdict rows a run's records get: none without a baseline and another arm, and a
sequential run's at the look where it stopped (over the runs that look saw), else the fixed
design's."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pytest_ponybench.analysis import report, sequential, stats
from pytest_ponybench.analysis.stats import ArmVerdict
from pytest_ponybench.core.records import Record

__all__ = ["RunVerdicts", "arm_verdicts", "arms_of", "run_verdicts"]


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
) -> list[ArmVerdict]:
    """stats.verdicts, but only where there is something to compare: [] when the baseline arm or
    every other arm is missing. Raises ValueError for an unknown primary or family."""
    arms = arms_of(records)
    if baseline not in arms or len(arms) < 2:
        return []
    return stats.verdicts(records, baseline, primary=primary, family=family)


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
) -> RunVerdicts:
    """The verdicts of one run dir: a sequential run's at the look where it stopped (over the
    runs that look saw, its primary decided by the sequence), else (design None: run.json's
    `sequential`, through store/runinfo.py) the fixed design's."""
    if design is None or not design[1]:
        return RunVerdicts(arm_verdicts(records, baseline, primary=primary, family=family), list(records), [])
    plan, looks = design
    seen = sequential.seen_by(records, looks)
    return RunVerdicts(
        sequential.final_verdicts(seen, plan, looks), seen, sequential.describe_looks(looks, plan)
    )
