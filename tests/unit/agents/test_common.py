"""What the CLIs beside Claude Code share (pytest_ponybench.agents.common)."""

from __future__ import annotations

from pytest_ponybench.agents.common import prompt_argument


def test_a_prompt_that_starts_with_a_dash_gets_a_space_so_no_parser_reads_a_flag() -> None:
    assert prompt_argument("--help me write merge.py") == " --help me write merge.py"
    assert prompt_argument("-") == " -"


def test_any_other_prompt_is_passed_as_it_is() -> None:
    assert prompt_argument("Write merge.py -- then stop") == "Write merge.py -- then stop"
    assert prompt_argument(" -x") == " -x"
    assert prompt_argument("") == ""
