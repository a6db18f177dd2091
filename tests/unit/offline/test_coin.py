"""Tests for `offline/coin.py`: the directed offline model's `good` from the request, the cell's
coin from its id, and the plugin skill it invokes first (in claude's dialect)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_ponybench.offline.coin import (
    DEFAULT_GOOD,
    describe,
    directed_good,
    draws_good,
    offered_plugin_skills,
    skill_call,
)

LISTING = (
    "The following skills are available for use with the Skill tool:\n\n"
    "- careful:careful-review: Review a change with care\n"
    "- plain-skill: a skill of no plugin\n"
    "- other:lint: Lint it\n"
)


def body(
    system: Any = "", *messages: dict[str, Any], tools: tuple[str, ...] = ("Skill", "Read")
) -> dict[str, Any]:
    return {"system": system, "messages": list(messages), "tools": [{"name": t} for t in tools]}


@pytest.mark.parametrize(
    ("request_body", "good"),
    [
        (body("You are helpful."), DEFAULT_GOOD),
        (body("ponybench-offline: good=0.9"), 0.9),
        (body([{"type": "text", "text": "x"}, {"type": "text", "text": "ponybench-offline:good=.25"}]), 0.25),
        (body("", {"role": "user", "content": "hook said ponybench-offline: good=1"}), 1.0),
        (body("", {"role": "user", "content": [{"type": "text", "text": "ponybench-offline: good=0"}]}), 0.0),
        (
            body("", {"role": "assistant", "content": "ponybench-offline: good=0.9"}),
            DEFAULT_GOOD,
        ),  # the model's own
        (body("ponybench-offline: good=0.7 then ponybench-offline: good=0.1"), 0.7),  # the first one
    ],
)
def test_good_is_the_first_directive_that_reached_the_model(
    request_body: dict[str, Any], good: float
) -> None:
    assert directed_good(request_body) == good


def test_the_coin_is_the_cells_own_and_falls_at_the_rate_asked() -> None:
    cells = [f"t{n}-arm-offline-coin-r{r}" for n in range(200) for r in range(5)]
    assert [draws_good(c, 0.5) for c in cells] == [
        draws_good(c, 0.5) for c in cells
    ]  # a rerun draws the same
    share = sum(draws_good(c, 0.9) for c in cells) / len(cells)
    assert 0.86 < share < 0.94
    assert not any(draws_good(c, 0.0) for c in cells) and all(draws_good(c, 1.0) for c in cells)
    assert json.loads(describe(body("ponybench-offline: good=1"), cells[0])) == {"good": 1.0, "draw": "good"}


def test_the_plugin_skills_offered_to_the_skill_tool() -> None:
    offered = body(LISTING)
    assert offered_plugin_skills(offered) == ["careful:careful-review", "other:lint"]  # plugin:skill only
    assert offered_plugin_skills(body(LISTING, tools=("Read",))) == []  # no skill tool, no skill
    assert offered_plugin_skills(body("no listing")) == []


def test_the_first_skill_is_invoked_once() -> None:
    first = skill_call(body(LISTING))
    assert first == {
        "type": "tool_use",
        "id": "",
        "name": "Skill",
        "input": {"skill": "careful:careful-review"},
    }
    called = {"role": "assistant", "content": [first]}
    assert skill_call(body(LISTING, {"role": "user", "content": "go"}, called)) is None
    assert skill_call(body("no listing")) is None
