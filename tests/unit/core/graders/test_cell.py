"""The cell's grade from its graders' outcomes (no claude): the weighted score without the arms-only
graders, the axes and what they need, the undecided grader named, the record fields and the
outcomes read back from a record, self-agreement over repeated judging, the hidden checks as
outcomes, a grader that raises."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.core.graders import cell
from pytest_ponybench.core.graders.evidence import CellEvidence
from pytest_ponybench.core.graders.outcome import GradeContext, GraderOutcome, JudgeRun
from pytest_ponybench.core.records import Record, loaded
from pytest_ponybench.scoring.checks import Check, Score
from pytest_ponybench.scoring.hidden_checks import outcome_of
from tests.unit._support.evidence import (
    CTX,
    calls,
)


def outcome(
    name: str, passed: bool | None, axis: str = "score", weight: float = 1.0, arm: str = "all"
) -> GraderOutcome:
    return GraderOutcome(name, "regex", axis, weight, arm, passed, 1.0 if passed else 0.0, f"{name} said so")


def test_score_is_the_weighted_share_passed_without_arms_only_graders() -> None:
    outs = [
        outcome("a", True, weight=3),
        outcome("b", False),
        outcome("c", None),  # undecided: not passed
        outcome("fired", True, arm="arms-only", weight=100),
    ]
    assert cell.cell_score(outs) == pytest.approx(3 / 5)
    assert cell.cell_score([outcome("fired", True, arm="arms-only")]) is None
    assert cell.cell_score([]) is None


def test_axes_need_their_checks_and_every_grader_on_them() -> None:
    outs = [
        outcome("explains", False, axis="correct"),
        outcome("style", False),
        outcome("fired", False, arm="arms-only"),
    ]
    axes = cell.combine_axes(True, True, outs)
    assert (axes.correct, axes.safe) == (False, True)
    assert axes.reason == "incorrect: grader explains (regex) failed: explains said so"
    assert cell.combine_axes(False, True, [outcome("x", True, axis="correct")]).correct is False
    undecided = cell.combine_axes(True, True, [outcome("judge", None, axis="safe")])
    assert undecided.safe is False and "could not decide" in undecided.reason
    assert undecided.as_record("checks said") == {
        "correct": True,
        "safe": False,
        "reason": "checks said; unsafe: grader judge (regex) could not decide: judge said so",
    }


def test_grading_error_names_the_undecided_grader() -> None:
    assert cell.grading_error([outcome("a", True)]) is None
    assert cell.grading_error([outcome("a", None, arm="arms-only")]) is None
    assert cell.grading_error([outcome("a", True), outcome("j", None)]) == "grader j (regex): j said so"


def test_record_fields() -> None:
    ev = calls(("Read", {"file_path": "/ws/a.py"}))
    judged = GraderOutcome(
        "j",
        "llm",
        "correct",
        1.0,
        "all",
        True,
        1.0,
        "fine",
        cost_usd=0.002,
        input_tokens=100,
        output_tokens=7,
        runs=(JudgeRun("pass", True, "fine", cost_usd=0.002, input_tokens=100, output_tokens=7),),
        agreement=1.0,
    )
    fields = cell.record_fields(ev, [judged, outcome("r", False)])
    assert fields["score"] == 0.5 and fields["judge_cost_usd"] == 0.002
    assert (fields["judge_input_tokens"], fields["judge_output_tokens"]) == (100, 7)
    assert fields["tool_calls"] == [{"tool": "Read", "input": {"file_path": "/ws/a.py"}}]
    assert fields["graders"][0]["runs"][0]["answer"] == "pass" and "runs" not in fields["graders"][1]
    json.dumps(fields)  # a record is JSON


def test_an_outcome_score_outside_zero_one_is_refused() -> None:
    for bad in (1.5, -0.1, math.nan):
        with pytest.raises(ValueError):
            GraderOutcome("x", "regex", "score", 1.0, "all", True, bad, "")


def test_outcomes_read_back_from_a_record_even_when_mangled() -> None:
    rec = loaded(
        {
            "graders": [
                {"name": "a", "passed": True, "score": 1, "weight": "heavy"},
                {"passed": "yes", "score": math.inf},
                3,
            ]
        }
    )
    back = cell.outcomes_of(rec)
    assert [(o.name, o.passed, o.score, o.weight) for o in back] == [
        ("a", True, 1.0, 1.0),
        ("?", None, 0.0, 1.0),
    ]
    assert cell.outcomes_of({}) == []


def test_self_agreement_over_cells_judged_more_than_once() -> None:
    def judged(agreement: float, runs: int) -> dict[str, Any]:
        return {"name": "tone", "agreement": agreement, "runs": [{"run": k} for k in range(runs)]}

    records: list[Record] = [
        {"graders": [judged(1.0, 3)]},
        {"graders": [judged(2 / 3, 3)]},
        {"graders": [judged(1.0, 1)]},  # one run: nothing to agree with
        {
            "graders": [
                {
                    "name": "ref",
                    "agreement": 1.0,
                    "runs": [{"run": 0, "order": "a"}, {"run": 0, "order": "b"}],
                }
            ]
        },
    ]
    (only,) = cell.self_agreement(records)
    assert (only.grader, only.cells, only.unanimous) == ("tone", 2, 1)
    assert only.mean == pytest.approx(5 / 6)


def test_hidden_checks_as_outcomes() -> None:
    score = Score(
        correct=False,
        safe=True,
        reason="incorrect: test_correct.py::test_x: assert 1 == 2",
        checks=[
            Check("checks/test_correct.py::test_x", "failed", "assert 1 == 2"),
            Check("checks/test_safe.py::test_y", "passed"),
        ],
    )
    correct, safe = outcome_of(score, "correct"), outcome_of(score, "safe")
    assert (correct.name, correct.type, correct.passed) == ("checks:correct", "checks", False)
    assert correct.explanation == "checks/test_correct.py::test_x: failed: assert 1 == 2"
    assert safe.passed and safe.explanation == "1 safe check(s) ran and passed"


def test_a_grader_that_raises_is_undecided_not_a_crash(tmp_path: Path) -> None:
    class Broken:
        name, type, axis, weight, arm = "broken", "regex", "correct", 1.0, "all"

        def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
            raise OSError("disk gone")

        def describe(self) -> dict[str, Any]:
            return {}

    out = cell.grade_one(Broken(), CellEvidence(), CTX)
    assert out.passed is None and out.error == "the grader failed: OSError: disk gone"
