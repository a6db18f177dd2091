"""Tests for `plan/preflight.py`: the pre-flight's one line per arm, a baseline said without starting
a session, and what a hook's answer gives the model in each CLI's reading."""

from __future__ import annotations

import json

import pytest

from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.gateway.routes import Routes
from pytest_ponybench.plan import preflight


def test_the_preflight_says_each_arm_in_one_line() -> None:
    ok = {"arm": "mine", "ok": True, "problems": [], "evidence": {"hook_events": ["SessionStart"]}}
    assert preflight.arm_line(ok, "hooks SessionStart") == "arm mine: ok (hooks SessionStart)"
    assert preflight.arm_line(ok) == "arm mine: ok"
    bad = {
        "arm": "mine",
        "ok": False,
        "problems": ["hook SessionStart exited 1: a \x1b[31m … Error: b", "its skill 'x' is not registered"],
    }
    # Problems in one line, joined; a terminal's control characters escaped, never obeyed.
    assert preflight.arm_line(bad) == (
        "arm mine: hook SessionStart exited 1: a \\x1b[31m … Error: b; its skill 'x' is not registered"
    )


def test_a_baseline_is_said_without_starting_a_session() -> None:
    def routes() -> Routes:
        raise AssertionError("nothing to check: no offline server is started")

    results, lines = preflight.activation_lines(
        [Arm("baseline"), Arm("none")],
        [("claude", "claude")],
        routes,
        baseline=False,
        note=preflight.REFUSED_NOTE,
    )
    assert results == []
    assert lines == ["arm baseline: ok (nothing to load)", "arm none: ok (nothing to load)"]


def test_the_checks_in_the_background_give_what_the_synchronous_ones_give() -> None:
    def routes() -> Routes:
        raise AssertionError("nothing to check: no offline server is started")

    job = preflight.ActivationInBackground([Arm("baseline")], [("claude", "claude")], routes, "")
    assert job.result() == ([], ["arm baseline: ok (nothing to load)"])
    assert job.result() == ([], ["arm baseline: ok (nothing to load)"])  # asked again: the same


def test_what_a_check_in_the_background_raised_reaches_the_one_who_waits() -> None:
    """A bad input the checks find is the usage error it is when they run first."""
    bad = Arm("mine", parts=(Part(kind="prompt", text="Be brief."),))
    unused = Routes.__new__(Routes)  # handed over, never opened: the unknown CLI is refused first
    job = preflight.ActivationInBackground([bad], [("no-such-cli", "x")], lambda: unused, "")
    with pytest.raises(PonybenchError, match="--agents: unknown agent 'no-such-cli'"):
        job.result()


def test_a_cli_that_reads_the_top_level_context_gets_it_and_nothing_of_plain_stdout() -> None:
    """Copilot CLI reads a JSON answer's top-level additionalContext; claude reads
    hookSpecificOutput's. Each gets only its own, and an async answer gives nothing yet."""
    top = json.dumps({"additionalContext": " house style "})
    specific = json.dumps({"hookSpecificOutput": {"additionalContext": "house style"}})
    assert preflight.model_context(top, top_level=True) == ("house style", False)
    assert preflight.model_context(specific, top_level=True) == (None, False)
    assert preflight.model_context("plain text", top_level=True) == (None, False)
    assert preflight.model_context('{"async": true}', top_level=True) == (None, True)
    assert preflight.model_context("plain text") == ("plain text", False)
    assert preflight.model_context(specific) == ("house style", False)
