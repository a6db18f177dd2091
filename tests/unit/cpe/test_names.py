"""Tests for `cpe/names.py`: `claude plugin eval` names as ponybench names, the same from the suite
importer and from the results reader, so `ponybench compare` pairs a case with its task."""

from __future__ import annotations

import pytest

from pytest_ponybench.core.names import MAX_NAME_CHARS, name_problem
from pytest_ponybench.cpe.names import BASELINE, arm_name, tag_name, task_id


@pytest.mark.parametrize(
    ("case", "task"),
    [
        ("Judge: explain it", "Judge_explain_it"),
        ("a-b", "a-b"),
        ("-x-", "x"),
        ("3 things", "case_3_things"),  # a task id does not start with a digit
        ("déjà vu", "d_j_vu"),
        ("  ", "case"),
        ("a" * 80, "a" * MAX_NAME_CHARS),
    ],
)
def test_a_case_name_becomes_a_task_folder_name(case: str, task: str) -> None:
    assert task_id(case) == task
    assert name_problem(task) is None


def test_a_long_case_name_is_cut_without_a_trailing_separator() -> None:
    cut = task_id("a" * (MAX_NAME_CHARS - 1) + "_b")
    assert cut == "a" * (MAX_NAME_CHARS - 1) and len(cut) < MAX_NAME_CHARS


@pytest.mark.parametrize(
    ("plugins", "arm"),
    [
        (["careful"], "careful"),
        (["my plugin!"], "my_plugin"),
        (["a", "b"], "a_b"),
        (["v1.2"], "v1.2"),
        ([BASELINE], "plugin_baseline"),  # never the run without the plugin
        ([".."], "plugin"),  # never a path
        (["", " "], "plugin"),
    ],
)
def test_the_plugins_of_a_run_become_an_arm_name(plugins: list[str], arm: str) -> None:
    assert arm_name(plugins) == arm
    assert name_problem(arm) is None


def test_an_arm_name_keeps_the_name_limit() -> None:
    assert len(arm_name(["p" * 50, "q" * 50])) == MAX_NAME_CHARS


@pytest.mark.parametrize(
    ("tag", "name"), [("fast path", "fast_path"), ("x-y", "x_y"), ("9lives", "t_9lives"), ("", "tag")]
)
def test_a_tag_becomes_an_identifier_usable_with_m(tag: str, name: str) -> None:
    assert tag_name(tag) == name and name.isidentifier()
