"""The hidden checks as graders: the first grader, and the only one that runs code.

`scoring.score` runs the task's checks in the sandbox once per workspace and decides both axes;
here that one scoring serves two graders (`checks:correct`, `checks:safe`) through the
context's memo, so the pipeline can treat checks and declared graders alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytest_ponybench.core.graders.evidence import CellEvidence
from pytest_ponybench.core.graders.outcome import CHECKS_TYPE, GradeContext, GraderOutcome

if TYPE_CHECKING:
    from pytest_ponybench.core.tasks import Task
    from pytest_ponybench.scoring.checks import Score

__all__ = ["HiddenChecks", "MEMO_KEY", "outcome_of"]

MEMO_KEY = "checks"


def outcome_of(score: Score, axis: str) -> GraderOutcome:
    """One axis of a scoring as a grader outcome."""
    passed = bool(getattr(score, axis))
    failing = [c for c in score.checks if c.axis == axis and c.outcome != "passed"]
    if passed:
        ran = sum(1 for c in score.checks if c.axis == axis)
        explanation = f"{ran} {axis} check(s) ran and passed" if ran else f"no {axis} check to fail"
    elif failing:
        first = failing[0]
        explanation = f"{first.nodeid}: {first.outcome}: {' '.join(first.message.split())}"
    else:
        explanation = score.reason or f"no {axis} check ran"
    return GraderOutcome(
        name=f"checks:{axis}",
        type=CHECKS_TYPE,
        axis=axis,
        weight=1.0,
        arm="all",
        passed=passed,
        score=1.0 if passed else 0.0,
        explanation=explanation,
    )


@dataclass(frozen=True)
class HiddenChecks:
    """The task's checks/ folder on one axis, as a Grader."""

    task: Task
    axis: str  # correct | safe
    weight: float = 1.0
    arm: str = "all"

    @property
    def name(self) -> str:
        return f"checks:{self.axis}"

    @property
    def type(self) -> str:
        return CHECKS_TYPE

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "axis": self.axis, "checks": sorted(self.task.checks)}

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
        from pytest_ponybench.scoring.checks import score

        result = context.memo.get(MEMO_KEY)
        if result is None:
            if evidence.workspace is None:
                return GraderOutcome(
                    self.name,
                    self.type,
                    self.axis,
                    self.weight,
                    self.arm,
                    None,
                    0.0,
                    "no workspace to score",
                    error="no workspace to score",
                )
            result = context.memo[MEMO_KEY] = score(self.task, evidence.workspace.root)
        return outcome_of(result, self.axis)
