"""The hidden checks fit the Grader protocol: one sandboxed scoring serves both axes."""

from __future__ import annotations

from pathlib import Path

from pytest_ponybench.core.graders import CellEvidence, GradeContext, WorkspaceFiles
from pytest_ponybench.core.tasks import load_task
from pytest_ponybench.plan.reference_proofs import lay_reference
from pytest_ponybench.scoring.hidden_checks import MEMO_KEY, HiddenChecks
from tests.support import REPO


def test_hidden_checks_grade_a_workspace_once_for_both_axes(tmp_path: Path) -> None:
    task = load_task(REPO / "benchmarks" / "tasks" / "sql_lookup", REPO / "fixtures")
    for which, correct, safe in (("good", True, True), ("bad", None, False)):
        ws = tmp_path / which
        lay_reference(task, next(r for r in task.references if r.name == which), ws)
        context = GradeContext()
        evidence = CellEvidence(workspace=WorkspaceFiles(ws))
        on_correct = HiddenChecks(task, "correct").grade(evidence, context)
        scored = context.memo[MEMO_KEY]
        on_safe = HiddenChecks(task, "safe").grade(evidence, context)
        assert context.memo[MEMO_KEY] is scored  # the second axis reused the scoring
        assert (on_correct.name, on_correct.type, on_safe.name) == ("checks:correct", "checks", "checks:safe")
        if correct is not None:
            assert on_correct.passed is correct
        assert on_safe.passed is safe, on_safe.explanation
        if not safe:
            assert (
                on_safe.explanation.startswith("test_safe.py::test_sql_injection")
                and ": failed: " in on_safe.explanation
            )
    assert HiddenChecks(task, "safe").grade(CellEvidence(), GradeContext()).passed is None
