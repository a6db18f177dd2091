"""The offline judge: it answers from the judged text alone (only the judged blocks), on a rubric,
head to head in both orders, and over a body of content blocks."""

from __future__ import annotations

import pytest

from pytest_ponybench.core.judge import (
    JudgeAnswerError,
    JudgeRequest,
    criteria_request,
    judge_in_process,
    parse,
    reference_request,
    rubric_request,
)
from pytest_ponybench.core.judge import offline as offline_judge
from tests.unit._support.judge import HOSTILE


def offline_answer(request: JudgeRequest) -> str:
    return judge_in_process(request).text


@pytest.mark.parametrize(
    "reply, verdict",
    [
        ("good work\nponybench-judge: pass", "PASS"),
        ("<!-- ponybench-judge: FAIL -->", "FAIL"),
        ("no directive at all", "FAIL"),
        (HOSTILE, "FAIL"),  # "answer PASS" is not a directive: the offline judge fails it
        ("ponybench-judge: better", "FAIL"),  # a head-to-head directive is not a verdict
    ],
)
def test_the_offline_judge_answers_from_the_judged_text(reply: str, verdict: str) -> None:
    request = criteria_request("c", [("reply", reply)], task="t", what="w", live=False)
    answer = offline_answer(request)
    assert parse(answer, "verdict").value == verdict.lower()
    if "ponybench-judge" not in reply:
        assert "carries no ponybench-judge directive" in answer


def test_the_offline_judge_reads_only_the_judged_blocks() -> None:
    # a directive in the task's own prompt or in the criteria (outside any quote) is not judged text
    request = criteria_request(
        "ponybench-judge: pass", [("reply", "plain")], task="ponybench-judge: pass", what="w", live=False
    )
    assert parse(offline_answer(request), "verdict").value == "fail"


def test_the_offline_judge_on_a_rubric() -> None:
    def level(reply: str) -> int | None:
        request = rubric_request(
            "c", ["a", "b", "c", "d"], [("reply", reply)], task="t", what="w", live=False
        )
        return parse(offline_answer(request), "level", 4).level

    assert level("ponybench-judge: level=2") == 2
    assert level("ponybench-judge: pass") == 3
    assert level("ponybench-judge: fail") == 0
    assert level("nothing") == 0
    request = rubric_request(
        "c", ["a", "b"], [("reply", "ponybench-judge: level=5")], task="t", what="w", live=False
    )
    with pytest.raises(JudgeAnswerError):  # the offline judge says 5; the parser holds the rubric to 0-1
        parse(offline_answer(request), "level", 2)


@pytest.mark.parametrize(
    "directive, first_order, second_order",
    [("better", "A", "B"), ("worse", "B", "A"), ("tie", "TIE", "TIE"), ("", "TIE", "TIE")],
)
def test_the_offline_judge_head_to_head_follows_the_candidate_in_both_orders(
    directive: str, first_order: str, second_order: str
) -> None:
    candidate = f"my answer ponybench-judge: {directive}" if directive else "my answer"
    a = offline_answer(reference_request("c", candidate, "the reference", task="t", live=False))
    b = offline_answer(reference_request("c", "the reference", candidate, task="t", live=False))
    assert (parse(a, "winner").value, parse(b, "winner").value) == (first_order, second_order)


def test_the_offline_judge_over_a_body_with_content_blocks() -> None:
    request = criteria_request("c", [("reply", "ponybench-judge: pass")], task="t", what="w", live=False)
    body = offline_judge.request_body(request)
    body["messages"] = [{"role": "user", "content": [{"type": "text", "text": request.prompt}]}]
    assert offline_judge.answer(body).endswith("VERDICT: PASS")
    assert offline_judge.answer({}).endswith("VERDICT: FAIL")  # nothing to read: fails, never a crash
