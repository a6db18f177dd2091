"""The grader model: one protocol, one typed outcome, whatever the grader reads.

Shaped like inspect_ai's scorers: every grader, from a regex over the reply to a model judge,
returns the same `GraderOutcome`, so the record, the score, the axes and the selftest treat them
alike. The task's hidden checks fit the same protocol (`checks.HiddenChecks`); they stay the one
grader that runs code.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from pytest_ponybench.core.graders.registry import JUDGE_TYPES, TYPES

if TYPE_CHECKING:
    from pytest_ponybench.core.graders.evidence import CellEvidence
    from pytest_ponybench.core.judge import Judge

__all__ = [
    "ARMS",
    "AXES",
    "CHECKS_TYPE",
    "Common",
    "EXPLANATION_CHARS",
    "GradeContext",
    "Grader",
    "GraderOutcome",
    "JUDGE_TYPES",
    "JudgeRun",
    "TYPES",
    "clip",
]

AXES = ("correct", "safe", "score")
ARMS = ("all", "arms-only")
CHECKS_TYPE = "checks"  # the hidden checks, as outcomes (not declared in [[graders]])
EXPLANATION_CHARS = 2_000  # an explanation longer than this is cut in the record


def clip(text: str, limit: int = EXPLANATION_CHARS) -> str:
    """Text cut to limit characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f" [... {len(text) - limit} characters cut]"


@dataclass(frozen=True)
class JudgeRun:
    """One answer of the judge: one run, and for a head-to-head grader one order of the pair."""

    answer: str | None  # "pass" | "fail" | "level N" | "better" | "worse" | "tie"; None: no answer
    passed: bool | None
    explanation: str
    order: str | None = None  # llm_reference: "candidate first" | "reference first"
    run: int = 0
    level: int | None = None
    vote: int | None = None  # llm_reference: +1 candidate better, 0 tie, -1 worse
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    error: str | None = None

    def as_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "run": self.run,
            "answer": self.answer,
            "passed": self.passed,
            "explanation": clip(self.explanation),
            "cost_usd": round(self.cost_usd, 6),
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
        }
        for key in ("order", "level", "vote", "error"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


@dataclass(frozen=True)
class GraderOutcome:
    """What one grader decided about one cell (or one reference).

    `passed` is None when the grader could not decide (a judge that gave no usable answer, or
    no judge): never a pass, and `error` says why. `score` is in [0, 1]: 1 or 0 for a
    deterministic grader, the share of runs that passed (a rubric's level scaled to [0, 1]) for
    a judge. `agreement` is the judge's self-agreement over its runs: the share of decided runs
    that gave the majority's answer (None for deterministic graders).
    """

    name: str
    type: str
    axis: str
    weight: float
    arm: str
    passed: bool | None
    score: float
    explanation: str
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    runs: tuple[JudgeRun, ...] = field(default=())
    agreement: float | None = None
    error: str | None = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.score) and 0.0 <= self.score <= 1.0):
            raise ValueError(f"grader {self.name}: score {self.score!r} is not in [0, 1]")

    @property
    def counts(self) -> bool:
        """Whether it takes part in the cell's axes and score (arms-only graders do not)."""
        return self.arm == "all"

    def as_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "axis": self.axis,
            "weight": self.weight,
            "arm": self.arm,
            "passed": self.passed,
            "score": round(self.score, 4),
            "explanation": clip(self.explanation),
        }
        if self.type in JUDGE_TYPES:
            out.update(
                cost_usd=round(self.cost_usd, 6),
                input_tokens=self.input_tokens,
                output_tokens=self.output_tokens,
                agreement=None if self.agreement is None else round(self.agreement, 4),
                runs=[r.as_record() for r in self.runs],
            )
        if self.error is not None:
            out["error"] = self.error
        return out

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> GraderOutcome:
        """Back from a record (summary and report read outcomes this way); lenient on odd values."""
        score = data.get("score")
        weight = data.get("weight")
        passed = data.get("passed")
        return cls(
            name=str(data.get("name", "?")),
            type=str(data.get("type", "?")),
            axis=str(data.get("axis", "score")),
            weight=float(weight) if isinstance(weight, int | float) and not isinstance(weight, bool) else 1.0,
            arm=str(data.get("arm", "all")),
            passed=passed if isinstance(passed, bool) else None,
            score=float(score)
            if isinstance(score, int | float) and not isinstance(score, bool) and 0 <= score <= 1
            else 0.0,
            explanation=str(data.get("explanation", "")),
            agreement=data.get("agreement") if isinstance(data.get("agreement"), float) else None,
            error=data.get("error") if isinstance(data.get("error"), str) else None,
        )


@dataclass
class GradeContext:
    """What a grader may need beyond the evidence: the judge (None: judge graders cannot
    decide), how many times to ask it, and a per-cell memo for work graders share (the hidden
    checks' one scoring serves both axes)."""

    judge: Judge | None = None
    judge_runs: int = 1
    strip_directives: bool = True  # a live judge never sees the offline judge's directives
    memo: dict[str, Any] = field(default_factory=dict)


class Grader(Protocol):
    """A grader: what it is (name, type, axis, weight, arm) and how it decides."""

    @property
    def name(self) -> str: ...

    @property
    def type(self) -> str: ...

    @property
    def axis(self) -> str: ...

    @property
    def weight(self) -> float: ...

    @property
    def arm(self) -> str: ...

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome: ...

    def describe(self) -> dict[str, Any]:
        """Its declaration as plain data (for the task's content hash and the report)."""
        ...


@dataclass(frozen=True, kw_only=True)
class Common:
    """The keys every declared grader has; each type's dataclass adds its own."""

    name: str
    axis: str = "score"
    weight: float = 1.0
    arm: str = "all"
    turn: int | None = None  # one turn of a conversation (1: prompt.md's); None: all of it

    type: str = ""  # set by each grader type
    # Keys left out of the description at these values: a grader declared as before keys added
    # since keeps its description, and its task its hash.
    QUIET: ClassVar[Mapping[str, Any]] = {"turn": None}

    def describe(self) -> dict[str, Any]:
        out = {f.name: _plain(getattr(self, f.name)) for f in sorted(fields(self), key=lambda f: f.name)}
        return {k: v for k, v in out.items() if k not in self.QUIET or self.QUIET[k] != v}

    def outcome(self, passed: bool | None, explanation: str, **more: Any) -> GraderOutcome:
        score = more.pop("score", 1.0 if passed else 0.0)
        return GraderOutcome(
            name=self.name,
            type=self.type,
            axis=self.axis,
            weight=self.weight,
            arm=self.arm,
            passed=passed,
            score=score,
            explanation=explanation,
            **more,
        )


def _plain(value: Any) -> Any:
    """A declaration's value as JSON-able data (tuples of steps, compiled patterns)."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if hasattr(value, "describe") and callable(value.describe):
        return value.describe()
    if hasattr(value, "pattern") and isinstance(value.pattern, str):
        return value.pattern
    return value
