"""The judge: a model asked to grade what an agent said or wrote, as data in, one answer out.

prompt    the requests (prompts kept as data in prompts/*.md; judged text quoted)
answer    the strict parser of the judge's answer
offline   the offline judge (`offline-judge`): answers from directives in the judged text
cli       the call through the claude CLI: its own confined session, cost and tokens apart
"""

from __future__ import annotations

from pytest_ponybench.core.judge.answer import Answer, JudgeAnswerError, parse
from pytest_ponybench.core.judge.offline import OFFLINE_JUDGE, judge_in_process
from pytest_ponybench.core.judge.prompt import (
    Judge,
    JudgeReply,
    JudgeRequest,
    criteria_request,
    reference_request,
    rubric_request,
)

__all__ = [
    "OFFLINE_JUDGE",
    "Answer",
    "Judge",
    "JudgeAnswerError",
    "JudgeReply",
    "JudgeRequest",
    "criteria_request",
    "judge_in_process",
    "parse",
    "reference_request",
    "rubric_request",
]
