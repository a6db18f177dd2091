"""The judge graders: `llm` (criteria, pass/fail or a rubric) and `llm_reference` (head to head
against a reference answer, both orders).

Shaped like inspect_ai's model-graded scorers, with what they leave out: the judged text is
quoted (judge.prompt), an unusable answer is a judge error and never a pass (judge.answer), and
each grader asks K times (`GradeContext.judge_runs`) and records every answer, so the judge's
agreement with itself is measured rather than assumed.

Combination rules:
- over K runs: the grader passes when a strict majority of the runs that answered passed (a tie
  fails); its score is the mean of their scores; `agreement` is the majority's share;
- head to head, per run: the candidate is judged once as A and once as B; each order votes +1
  (the candidate better), 0 (tie) or -1 (worse) and the sum decides (above 0 better, below 0
  worse, 0 tie), so two orders that contradict each other make a tie and a judge that always
  prefers one position decides nothing. `pass_if = "not_worse"` passes a tie, `"better"` does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.core.graders.evidence import CellEvidence, glob_problem
from pytest_ponybench.core.graders.outcome import Common, GradeContext, Grader, GraderOutcome, JudgeRun
from pytest_ponybench.core.graders.registry import GraderType
from pytest_ponybench.core.graders.table import Table, is_count
from pytest_ponybench.core.judge import Judge, JudgeAnswerError, JudgeReply, JudgeRequest, parse
from pytest_ponybench.core.judge.prompt import criteria_request, reference_request, rubric_request

__all__ = ["GRADER_TYPES", "LlmGrader", "LlmReferenceGrader", "ONS", "ORDERS", "PASS_IF"]

ONS = ("reply", "diff", "files")
PASS_IF = ("not_worse", "better")
ORDERS = ("candidate first", "reference first")


def _judged(
    on: str, files: Sequence[str], evidence: CellEvidence
) -> tuple[list[tuple[str, str]], str, str | None]:
    """(the blocks to judge, what they are in words, or an error why there is nothing to read)."""
    if on == "reply":
        return [("reply", evidence.reply)], "the agent's final reply", None
    if on == "diff":
        if evidence.diff is None:
            return [], "the diff", "no diff of the workspace is available"
        return [("diff", evidence.diff())], "the diff of the workspace against its seeded base", None
    if evidence.workspace is None:
        return [], "files", "no workspace to read"
    seen: dict[str, str] = {}
    for pattern in files:
        for path, text in evidence.workspace.texts(pattern):
            seen.setdefault(path, text)
    return list(seen.items()), f"the files matching {', '.join(files)}", None


def _answered(
    reply: JudgeReply, answer: str | None, passed: bool | None, explanation: str, **detail: Any
) -> JudgeRun:
    """One judge answer with what it cost."""
    return JudgeRun(
        answer,
        passed,
        explanation,
        cost_usd=reply.cost_usd,
        input_tokens=reply.input_tokens,
        output_tokens=reply.output_tokens,
        **detail,
    )


def _ask(judge: Judge, request: JudgeRequest) -> JudgeReply:
    try:
        return judge(request)
    except Exception as exc:  # a judge that crashes is a judge error for this grader, not a crash of the cell
        return JudgeReply(text="", error=f"the judge call failed: {type(exc).__name__}: {exc}")


def _combine(
    grader: Common,
    runs: list[JudgeRun],
    decided: list[tuple[bool, float, str]],
    errors: list[str],
    extra: str = "",
) -> GraderOutcome:
    """One outcome from K decisions (passed, score, reason) and every judge answer."""
    spent = {
        "cost_usd": sum(r.cost_usd for r in runs),
        "input_tokens": sum(r.input_tokens for r in runs),
        "output_tokens": sum(r.output_tokens for r in runs),
    }
    total = len(decided) + len(errors)
    if not decided:
        why = errors[0] if errors else "the judge gave no answer"
        return grader.outcome(
            None, f"the judge could not decide: {why}", score=0.0, runs=tuple(runs), error=why, **spent
        )
    n_pass = sum(1 for p, _, _ in decided if p)
    passed = 2 * n_pass > len(decided)
    agreement = max(n_pass, len(decided) - n_pass) / len(decided)
    score = sum(s for _, s, _ in decided) / len(decided)
    reason = next(r for p, _, r in decided if p == passed)
    head = f"{'PASS' if passed else 'FAIL'} ({n_pass} of {len(decided)} judge run(s) passed"
    head += f"; {len(errors)} of {total} gave no usable answer" if errors else ""
    head += ")"
    return grader.outcome(
        passed,
        f"{head}{extra}: {reason}",
        score=min(1.0, max(0.0, score)),
        runs=tuple(runs),
        agreement=agreement,
        **spent,
    )


@dataclass(frozen=True, kw_only=True)
class LlmGrader(Common):
    type: str = field(default="llm", init=False)
    criteria: str
    on: str = "reply"
    files: tuple[str, ...] = ()
    rubric: tuple[str, ...] = ()
    pass_level: int | None = None

    def _request(
        self, blocks: list[tuple[str, str]], what: str, evidence: CellEvidence, live: bool
    ) -> JudgeRequest:
        if self.rubric:
            return rubric_request(
                self.criteria, self.rubric, blocks, task=evidence.prompt, what=what, live=live
            )
        return criteria_request(self.criteria, blocks, task=evidence.prompt, what=what, live=live)

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
        blocks, what, problem = _judged(self.on, self.files, evidence)
        if problem is not None:
            return self.outcome(None, problem, error=problem)
        if not any(text.strip() for _, text in blocks):
            return self.outcome(False, f"nothing to judge: {what} is empty")
        if context.judge is None:
            return self.outcome(None, "no judge to ask", error="no judge to ask")
        request = self._request(blocks, what, evidence, context.strip_directives)
        runs: list[JudgeRun] = []
        decided: list[tuple[bool, float, str]] = []
        errors: list[str] = []
        for k in range(max(1, context.judge_runs)):
            reply = _ask(context.judge, request)
            if reply.error is not None:
                errors.append(reply.error)
                runs.append(_answered(reply, None, None, reply.text, run=k, error=reply.error))
                continue
            try:
                answer = parse(reply.text, request.kind, request.levels)
            except JudgeAnswerError as exc:
                errors.append(f"unusable answer: {exc}")
                runs.append(_answered(reply, None, None, reply.text, run=k, error=f"unusable answer: {exc}"))
                continue
            if answer.level is not None:
                level = answer.level
                passed = level >= (self.pass_level if self.pass_level is not None else len(self.rubric) - 1)
                score = level / max(1, len(self.rubric) - 1)
                label = f"level {level}"
            else:
                level, passed, score, label = (
                    None,
                    answer.value == "pass",
                    1.0 if answer.value == "pass" else 0.0,
                    answer.value,
                )
            runs.append(_answered(reply, label, passed, answer.reason, run=k, level=level))
            decided.append((passed, score, f"{label}: {answer.reason}"))
        return _combine(self, runs, decided, errors)


@dataclass(frozen=True, kw_only=True)
class LlmReferenceGrader(Common):
    type: str = field(default="llm_reference", init=False)
    criteria: str
    reference: str  # the reference answer's text
    reference_file: str = ""
    on: str = "reply"
    files: tuple[str, ...] = ()
    pass_if: str = "not_worse"

    def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
        blocks, what, problem = _judged(self.on, self.files, evidence)
        if problem is not None:
            return self.outcome(None, problem, error=problem)
        candidate = "\n\n".join(t if len(blocks) == 1 else f"=== {label} ===\n{t}" for label, t in blocks)
        if not candidate.strip():
            return self.outcome(False, f"nothing to judge: {what} is empty, so it cannot match the reference")
        if context.judge is None:
            return self.outcome(None, "no judge to ask", error="no judge to ask")
        live = context.strip_directives
        task = evidence.prompt
        requests = (
            reference_request(self.criteria, candidate, self.reference, task=task, live=live),
            reference_request(self.criteria, self.reference, candidate, task=task, live=live),
        )
        runs: list[JudgeRun] = []
        decided: list[tuple[bool, float, str]] = []
        errors: list[str] = []
        split = 0
        for k in range(max(1, context.judge_runs)):
            votes: list[int] = []
            reasons: list[str] = []
            for order, request in zip(ORDERS, requests, strict=True):
                reply = _ask(context.judge, request)
                error = reply.error
                if error is None:
                    try:
                        answer = parse(reply.text, "winner")
                    except JudgeAnswerError as exc:
                        error = f"unusable answer: {exc}"
                if error is not None:
                    runs.append(_answered(reply, None, None, reply.text, order=order, run=k, error=error))
                    errors.append(f"{order}: {error}")
                    continue
                candidate_side = "A" if order == ORDERS[0] else "B"
                vote = 0 if answer.value == "TIE" else (1 if answer.value == candidate_side else -1)
                word = {1: "better", 0: "tie", -1: "worse"}[vote]
                ok = vote > 0 if self.pass_if == "better" else vote >= 0
                runs.append(_answered(reply, word, ok, answer.reason, order=order, run=k, vote=vote))
                votes.append(vote)
                reasons.append(f"{order}: {word} ({answer.reason})")
            if len(votes) < 2:
                continue
            total = sum(votes)
            split += votes[0] != votes[1]
            verdict = "better" if total > 0 else "worse" if total < 0 else "tie"
            passed = total > 0 if self.pass_if == "better" else total >= 0
            decided.append((passed, (total + 2) / 4, f"{verdict} than the reference; " + "; ".join(reasons)))
        extra = f"; the two orders disagreed in {split} run(s)" if split else ""
        return _combine(self, runs, decided, errors, extra)


# ---------------------------------------------------------------- task.toml: each type's keys


def _criteria(t: Table, root: Path) -> str | None:
    has_text, has_file = "criteria" in t.table, "criteria_file" in t.table
    if has_text == has_file:
        t.problem(
            "criteria",
            "or 'criteria_file' (one of them) is required"
            if not has_text
            else "and 'criteria_file' are both given; keep one",
        )
        return None
    return t.text("criteria") if has_text else t.file_text("criteria_file", root)


def _on(t: Table) -> tuple[str, tuple[str, ...]]:
    on = t.choice("on", ONS, "reply")
    files = t.table.get("files")
    if on == "files":
        if not isinstance(files, list) or not files:
            t.problem("files", 'is required with on = "files": a list of workspace globs')
            return on, ()
        for g in files:
            if (why := glob_problem(g)) is not None:
                t.problem("files", why)
        return on, tuple(str(g) for g in files)
    if files is not None:
        t.problem("files", f'is only for on = "files" (this grader reads {on!r})')
    return on, ()


def _llm(t: Table, common: dict[str, Any], root: Path) -> Grader | None:
    criteria = _criteria(t, root)
    on, files = _on(t)
    rubric = t.table.get("rubric")
    levels: tuple[str, ...] = ()
    pass_level = t.table.get("pass_level")
    if rubric is not None:
        if (
            not isinstance(rubric, list)
            or len(rubric) < 2
            or not all(isinstance(x, str) and x.strip() for x in rubric)
        ):
            t.problem("rubric", "must be a list of two or more level descriptions, worst first")
        else:
            levels = tuple(rubric)
            if not isinstance(pass_level, int) or not is_count(pass_level) or pass_level >= len(levels):
                t.problem(
                    "pass_level",
                    f"must be the index of the lowest passing level (0 to {len(levels) - 1}), "
                    f"not {pass_level!r}",
                )
    elif pass_level is not None:
        t.problem("pass_level", "is only for a grader with a 'rubric'")
    if criteria is None:
        return None
    return LlmGrader(
        criteria=criteria,
        on=on,
        files=files,
        rubric=levels,
        pass_level=pass_level if levels and is_count(pass_level) else None,
        **common,
    )


def _llm_reference(t: Table, common: dict[str, Any], root: Path) -> Grader | None:
    criteria = _criteria(t, root)
    on, files = _on(t)
    reference = t.file_text("reference", root)
    pass_if = t.choice("pass_if", PASS_IF, "not_worse")
    if criteria is None or reference is None:
        return None
    return LlmReferenceGrader(
        criteria=criteria,
        reference=reference,
        reference_file=str(t.table.get("reference")),
        on=on,
        files=files,
        pass_if=pass_if,
        **common,
    )


# The judge types (registry.py lists them after the deterministic ones).
GRADER_TYPES = (
    GraderType("llm", ("criteria", "criteria_file", "on", "files", "rubric", "pass_level"), _llm, judge=True),
    GraderType(
        "llm_reference",
        ("reference", "criteria", "criteria_file", "on", "files", "pass_if"),
        _llm_reference,
        judge=True,
    ),
)
