"""The judge's strict answer parser: the verdicts that parse, those that do not (each an error, never
a pass), levels and winners."""

from __future__ import annotations

import re

import pytest

from pytest_ponybench.core.judge import (
    JudgeAnswerError,
    parse,
)


@pytest.mark.parametrize(
    "text, value",
    [
        ("REASON: fine.\nVERDICT: PASS", "pass"),
        ("REASON: no.\nVERDICT: FAIL", "fail"),
        ("**VERDICT: PASS**", "pass"),
        ("Reasons first.\n`VERDICT: fail`", "fail"),
        ("VERDICT: PASS.\n\nVERDICT: PASS", "pass"),  # the same answer twice is one answer
    ],
)
def test_verdicts_that_parse(text: str, value: str) -> None:
    assert parse(text, "verdict").value == value


@pytest.mark.parametrize(
    "text, why",
    [
        ("It passes, clearly.", "no 'VERDICT:' line"),
        ("", "no 'VERDICT:' line"),
        ("VERDICT: PASS\nVERDICT: FAIL", "2 different VERDICT lines"),
        ("VERDICT: MOSTLY", "must be PASS or FAIL"),
        ("VERDICT: PASS with reservations", "must be PASS or FAIL"),
        ("LEVEL: 2", "answered LEVEL where VERDICT was asked"),
        ("Verdict: the reply is good", "must be PASS or FAIL"),
    ],
)
def test_verdicts_that_do_not_parse_are_errors(text: str, why: str) -> None:
    with pytest.raises(JudgeAnswerError, match=re.escape(why)):
        parse(text, "verdict")


def test_levels_and_winners() -> None:
    assert parse("REASON: ok\nLEVEL: 2", "level", 3).level == 2
    with pytest.raises(JudgeAnswerError, match="from 0 to 2"):
        parse("LEVEL: 3", "level", 3)
    with pytest.raises(JudgeAnswerError, match="from 0 to 2"):
        parse("LEVEL: -1", "level", 3)
    assert parse("WINNER: b", "winner").value == "B"
    assert parse("WINNER: TIE", "winner").value == "TIE"
    with pytest.raises(JudgeAnswerError, match="A, B or TIE"):
        parse("WINNER: both", "winner")
    assert parse("REASON: because\nof this\nVERDICT: PASS", "verdict").reason == "because of this"
