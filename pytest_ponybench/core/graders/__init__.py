"""Graders beyond the files: the reply, the tool path, and model judges, beside the hidden checks.

    outcome        the Grader protocol, GraderOutcome, GradeContext
    registry       the grader types by name: their keys, their parser, whether a judge
    table          one [[graders]] table read key by key (what every type's parser reads)
    evidence       CellEvidence: reply, transcript, tool calls (their paths placed), workspace
                   files, the seeded base (bounded, redacted)
    deterministic  regex, tool_used, tool_absent, tool_order, file_exists, file_absent,
                   files_unchanged, and their parsers (GRADER_TYPES)
    model_graded   llm, llm_reference (through the judge package), and their parsers
    config         [[graders]] (the common keys; the rest by the type found in the registry),
                   expect_fire and ref.toml declarations, parsed and checked
    cell           grade_cell, the cell's score, checks and graders combined, record fields
    checks         the hidden checks as graders (imports the scorer)
    references     proving graders against a task's references (the selftest's part)

`checks` and `references` reach the scorer and the workspace and are imported where needed; the
rest is pure and light, so the task loader can import it.
"""

from __future__ import annotations

from pytest_ponybench.core.graders.cell import (
    Axes,
    cell_score,
    combine_axes,
    grade_cell,
    grading_error,
    record_fields,
    self_agreement,
)
from pytest_ponybench.core.graders.config import (
    DeclaredCall,
    ExpectFire,
    RefMeta,
    parse_expect_fire,
    parse_graders,
    parse_ref_meta,
)
from pytest_ponybench.core.graders.evidence import CellEvidence, ToolCall, WorkspaceFiles
from pytest_ponybench.core.graders.outcome import GradeContext, Grader, GraderOutcome, JudgeRun

__all__ = [
    "Axes",
    "CellEvidence",
    "DeclaredCall",
    "ExpectFire",
    "GradeContext",
    "Grader",
    "GraderOutcome",
    "JudgeRun",
    "RefMeta",
    "ToolCall",
    "WorkspaceFiles",
    "cell_score",
    "combine_axes",
    "grade_cell",
    "grading_error",
    "parse_expect_fire",
    "parse_graders",
    "parse_ref_meta",
    "record_fields",
    "self_agreement",
]
