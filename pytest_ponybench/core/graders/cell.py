"""One cell's graders, end to end: grade, score, combine with the hidden checks, record.

The integration into the cell pipeline is meant to be one call after scoring:

    evidence = CellEvidence.from_transcript(transcript, ws, prompt=task.prompt, diff=...)
    outcomes = grade_cell(task, evidence, judge=..., judge_runs=K, live_judge=...)
    rec.update(record_fields(evidence, outcomes))
    rec.update(combine_axes(rec["correct"], rec["safe"], outcomes).as_record(rec["reason"]))

Pure functions over outcomes and records, apart from the graders themselves (a judge grader
calls the judge it is given).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pytest_ponybench.core.graders.deterministic import RegexGrader, ToolOrderGrader, ToolUsedGrader
from pytest_ponybench.core.graders.evidence import CellEvidence
from pytest_ponybench.core.graders.outcome import GradeContext, Grader, GraderOutcome
from pytest_ponybench.core.records import Record

if TYPE_CHECKING:
    from pytest_ponybench.core.judge import Judge
    from pytest_ponybench.core.tasks import Task

__all__ = [
    "Agreement",
    "Axes",
    "cell_score",
    "combine_axes",
    "grade_cell",
    "grade_one",
    "grading_error",
    "judge_spend",
    "outcomes_of",
    "record_fields",
    "self_agreement",
    "uncalled_mocks",
]


def grade_one(grader: Grader, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
    """A grader's outcome, on the turn it reads (`turn`) or the whole session; one that raises (a
    bug, an unreadable file) is undecided, with the reason, and never takes the cell down with it."""
    turn = getattr(grader, "turn", None)  # a grader type a plugin registered may not have it
    try:
        if turn is None:
            return grader.grade(evidence, context)
        done = grader.grade(evidence.of_turn(turn), context)
        return replace(done, explanation=f"turn {turn}: {done.explanation}")
    except Exception as exc:
        why = f"the grader failed: {type(exc).__name__}: {exc}"
        return GraderOutcome(
            grader.name, grader.type, grader.axis, grader.weight, grader.arm, None, 0.0, why, error=why
        )


def grade_cell(
    task: Task,
    evidence: CellEvidence,
    judge: Judge | None = None,
    *,
    judge_runs: int = 1,
    live_judge: bool = True,
) -> list[GraderOutcome]:
    """Every grader the task declares, in order. `live_judge` (a model that is not offline)
    removes the offline judge's directives from what the judge reads."""
    context = GradeContext(judge=judge, judge_runs=judge_runs, strip_directives=live_judge)
    return [grade_one(g, evidence, context) for g in task.graders]


def cell_score(outcomes: Iterable[GraderOutcome]) -> float | None:
    """The weighted share of graders passed (arms-only graders left out; an undecided grader
    counts as not passed); None when no grader counts."""
    counted = [o for o in outcomes if o.counts]
    total = sum(o.weight for o in counted)
    if not counted or total <= 0:
        return None
    return sum(o.weight for o in counted if o.passed is True) / total


@dataclass(frozen=True)
class Axes:
    """The cell's axes once checks and graders are combined, and why an axis is false."""

    correct: bool
    safe: bool
    reason: str

    def as_record(self, checks_reason: str = "") -> Record:
        """correct, safe and the reason: the checks' reason first, then the graders'."""
        reason = "; ".join(r for r in (checks_reason, self.reason) if r)
        return Record(correct=self.correct, safe=self.safe, reason=reason)


def combine_axes(checks_correct: bool, checks_safe: bool, outcomes: Iterable[GraderOutcome]) -> Axes:
    """An axis is true only when its checks and every grader on it passed, like a check: an
    undecided grader (a judge error) does not pass. Arms-only graders stay out."""
    axes = {"correct": bool(checks_correct), "safe": bool(checks_safe)}
    reasons: list[str] = []
    for o in outcomes:
        if not o.counts or o.axis not in axes or o.passed is True:
            continue
        axes[o.axis] = False
        word = "incorrect" if o.axis == "correct" else "unsafe"
        state = "could not decide" if o.passed is None else "failed"
        reasons.append(f"{word}: grader {o.name} ({o.type}) {state}: {o.explanation}")
    return Axes(correct=axes["correct"], safe=axes["safe"], reason="; ".join(reasons))


def grading_error(outcomes: Iterable[GraderOutcome]) -> str | None:
    """Why a counted grader could not decide (a judge that did not answer), or None: the
    integration may retry the judge, or call the cell invalid rather than failed."""
    for o in outcomes:
        if o.counts and o.passed is None:
            return f"grader {o.name} ({o.type}): {o.error or o.explanation}"
    return None


def judge_spend(outcomes: Iterable[GraderOutcome]) -> tuple[float, int, int]:
    """Dollars, input and output tokens the judge took for this cell (every grader, every run)."""
    listed = list(outcomes)
    return (
        sum(o.cost_usd for o in listed),
        sum(o.input_tokens for o in listed),
        sum(o.output_tokens for o in listed),
    )


def record_fields(evidence: CellEvidence, outcomes: Sequence[GraderOutcome]) -> Record:
    """The record's grader fields: what graders read (bounded, redacted) and what they decided."""
    cost, tokens_in, tokens_out = judge_spend(outcomes)
    score = cell_score(outcomes)
    return Record(
        reply=evidence.record_reply(),
        tool_calls=evidence.record_tool_calls(),
        graders=[o.as_record() for o in outcomes],
        score=None if score is None else round(score, 4),
        judge_cost_usd=round(cost, 6),
        judge_input_tokens=tokens_in,
        judge_output_tokens=tokens_out,
    )


def uncalled_mocks(
    graders: Iterable[Grader], mocked: Iterable[str], evidence: CellEvidence
) -> list[dict[str, str]]:
    """The mocked tools a grader expects a call of and the agent never called, each with the
    grader: a tool_used (min 1 or more) or tool_order naming them, or a regex that must find
    one's name in the mock calls (in the turn the grader reads)."""
    names = sorted(mocked)
    out: list[dict[str, str]] = []
    for g in graders:
        wanted: list[str] = []
        if isinstance(g, ToolUsedGrader) and g.min >= 1:
            wanted = [n for n in names if any(fnmatch.fnmatchcase(n, t) for t in g.match.tools)]
        elif isinstance(g, ToolOrderGrader):
            wanted = [n for n in names if any(fnmatch.fnmatchcase(n, t) for s in g.steps for t in s.tools)]
        elif isinstance(g, RegexGrader) and g.target == "mock_calls" and g.mode == "contains":
            wanted = [
                n for n in names if n in g.pattern.pattern or n.rsplit("__", 1)[-1] in g.pattern.pattern
            ]
        turn = getattr(g, "turn", None)
        seen = evidence.of_turn(turn) if turn is not None else evidence
        called = {c.name for c in seen.mock_calls}
        out += [{"tool": n, "grader": g.name} for n in wanted if n not in called]
    return out


def outcomes_of(rec: Record) -> list[GraderOutcome]:
    """The grader outcomes a record holds (none for a record that predates graders)."""
    listed = rec.get("graders")
    return (
        [GraderOutcome.from_record(g) for g in listed if isinstance(g, Mapping)]
        if isinstance(listed, list)
        else []
    )


@dataclass(frozen=True)
class Agreement:
    """A judge grader's agreement with itself over the cells it judged more than once."""

    grader: str
    cells: int  # cells judged with two or more answers
    mean: float  # mean share of a cell's runs that gave its majority answer
    unanimous: int  # cells where every run agreed


def self_agreement(records: Iterable[Record]) -> list[Agreement]:
    """Per (task-independent) grader name: how often the judge agreed with itself (--judge-runs K)."""
    shares: dict[str, list[float]] = {}
    for rec in records:
        for g in rec.get("graders") or []:
            if not isinstance(g, Mapping) or not isinstance(g.get("agreement"), int | float):
                continue
            decided = {
                r.get("run") for r in g.get("runs") or [] if isinstance(r, Mapping) and r.get("error") is None
            }
            if len(decided) >= 2:  # two judge runs or more (a head-to-head run has two orders)
                shares.setdefault(str(g.get("name")), []).append(float(g["agreement"]))
    return [
        Agreement(name, len(values), sum(values) / len(values), sum(1 for v in values if v >= 1.0))
        for name, values in sorted(shares.items())
    ]
