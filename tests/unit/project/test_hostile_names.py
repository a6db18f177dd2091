"""Names and numbers made to break what they name: a cell id is a test id and a folder's name,
so a task id, an arm name and a model name are capped and can never be `.`, `..` or a path;
a task's check timeout is at most a day; a task.toml made to exhaust the parser, or holding a
huge value, is one short error naming the file. Through pytester (the plan refuses before any
cell) and the CLI entry point; no claude."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench.cpe.names import arm_name, task_id
from pytest_ponybench.errors import excerpt
from tests.support import one_task_project

TASK = "merge_intervals"


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    return one_task_project(pytester.path, TASK, claude_line="printf '\\377\\376 2.1.0 (Claude Code)\\n'")


def refused(pytester: pytest.Pytester, *args: str) -> str:
    """The plan stops with one usage error before any cell; what it said."""
    result = pytester.runpytest("benchmarks", "--claude", "./claude", *args)
    out = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, out
    assert "test_cell[" not in out and "Traceback" not in out, out
    assert not (pytester.path / "runs").exists()
    return out


def task_toml(project: Path) -> Path:
    return project / "benchmarks" / "tasks" / TASK / "task.toml"


@pytest.mark.parametrize("timeout", ["1e9", "86401", "inf", "nan", "0", "-1"])
def test_a_check_timeout_over_a_day_is_refused_naming_the_file_and_key(
    pytester: pytest.Pytester, project: Path, timeout: str
) -> None:
    path = task_toml(project)
    path.write_text(path.read_text().replace("timeout = 60", f"timeout = {timeout}"))
    out = refused(pytester)
    assert (
        f"{TASK}: task.toml: key 'timeout' must be a positive number of seconds, at most 86400 (a day)" in out
    )


def test_a_day_is_still_a_check_timeout(pytester: pytest.Pytester, project: Path) -> None:
    path = task_toml(project)
    path.write_text(path.read_text().replace("timeout = 60", "timeout = 86400"))
    result = pytester.runpytest("benchmarks", "--claude", "./claude", "--co", "-q")
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()


TAGS = 'tags = ["quick", "python", "algorithms", "intervals"]'


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("timeout = 60", "x = " + "[" * 3000 + "]" * 3000, "not valid TOML: it nests too deep to read"),
        (
            "timeout = 60",
            "x = " + "{a=" * 3000 + "1" + "}" * 3000,
            "not valid TOML: it nests too deep to read",
        ),
        ("timeout = 60", "timeout = " + "9" * 5000, "not valid TOML: Exceeds the limit (4300 digits)"),
        ('kind = "surgical"', 'kind = "' + "k" * 200_000 + '"', "key 'kind' is 'kkkkkkkk"),
        (
            TAGS,
            "tags = [" + ", ".join(['"not an id"'] * 50_000) + "]",
            "key 'tags' must be a list of identifiers",
        ),
    ],
)
def test_a_task_toml_made_to_break_the_reader_is_one_short_error(
    pytester: pytest.Pytester, project: Path, old: str, new: str, said: str
) -> None:
    path = task_toml(project)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    out = refused(pytester)
    assert f"{TASK}: task.toml: {said}" in out, out[-2000:]
    assert len(out) < 20_000  # a bounded excerpt, not the value


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--arm", ".=prompt:x"], "arm '.' (--arm): the name '.' is not a name"),
        (["--arm", "..=prompt:x"], "arm '..' (--arm): the name '..' is not a name"),
        (["--arm", "..=baseline"], "arm '..' (--arm): the name '..' is not a name"),
        (["--arm", "a" * 65 + "=prompt:x"], "is 65 characters long (at most 64)"),
        (["--arm", "a/b=prompt:x"], "names may use letters, digits, '_' and '.'"),
        (["--models", "../../tmp/x"], "--models: the model '../../tmp/x' holds a '/'"),
        (["--models", ".."], "--models: the model '..' is not a name"),
        (["--models", "m" * 101], "is 101 characters long (at most 100)"),
    ],
)
def test_a_name_that_could_be_a_path_or_too_long_a_folder_is_refused(
    pytester: pytest.Pytester, project: Path, args: list[str], said: str
) -> None:
    assert said in refused(pytester, *args)


@pytest.mark.parametrize("name", [".", "..", "x" * 65])
def test_an_arm_name_in_the_table_is_held_to_the_same_rule(
    pytester: pytest.Pytester, project: Path, name: str
) -> None:
    (project / "pyproject.toml").write_text(
        f'[tool.ponybench]\n[tool.ponybench.arms]\nbaseline = {{}}\n"{name}" = {{ prompt = "x" }}\n'
    )
    out = refused(pytester)
    assert f"arm {excerpt(name)} ([tool.ponybench.arms]" in out or f"arm {excerpt(name)} (" in out, out
    assert "is not a name" in out or "at most 64" in out


def test_a_task_folder_name_over_the_cap_is_refused(pytester: pytest.Pytester, project: Path) -> None:
    tasks = project / "benchmarks" / "tasks"
    (tasks / TASK).rename(tasks / ("t" * 65))
    assert "task id 'tttt" in (out := refused(pytester)) and "is 65 characters long (at most 64)" in out


@pytest.mark.parametrize("name", ["t" * 300, "t" * 65, "ok\n", "ok\nsecond"])
def test_task_new_refuses_a_long_or_multi_line_name_naming_the_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["task", "new", name]) == cli.USAGE
    err = capsys.readouterr().err
    assert err.count("ponybench: error:") == 1 and "Traceback" not in err
    assert "is not a task name (letters, digits, _ and -, from a letter, at most 64 of them)" in err
    assert len(err) < 300 and list(tmp_path.iterdir()) == []


def test_task_new_takes_a_name_of_64(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["task", "new", "t" * 64]) == cli.OK
    assert (tmp_path / "benchmarks" / "tasks" / ("t" * 64) / "task.toml").is_file()


def test_imported_names_keep_the_rule() -> None:
    assert arm_name(["."]) == arm_name([".."]) == "plugin"
    assert len(arm_name(["p" * 300])) == 64 and len(task_id("c" * 300)) == 64
    assert task_id("..") == "case"


class _CountedList(list[int]):
    """A list that counts the items read from it."""

    read = 0

    def __iter__(self) -> Iterator[int]:
        for item in super().__iter__():
            self.read += 1
            yield item


class _CountedDict(dict[str, str]):
    """A table that counts the pairs read from it."""

    read = 0

    def items(self) -> Iterator[tuple[str, str]]:  # type: ignore[override]
        for pair in super().items():
            self.read += 1
            yield pair


def test_an_excerpt_is_cut_while_walking() -> None:
    """Counted, not timed: a huge list or table is read no further than the cut, and a deep one
    is walked without recursion (100,000 levels would exhaust the stack)."""
    deep: list[object] = []
    cur = deep
    for _ in range(100_000):
        nxt: list[object] = []
        cur.append(nxt)
        cur = nxt
    many = _CountedList(range(10**6))
    wide = _CountedDict({f"k{i}": "v" for i in range(10**5)})
    shown = [excerpt("s" * 10**7), excerpt(many), excerpt(deep), excerpt({"k": "v" * 10**6}), excerpt(wide)]
    assert all(len(s) <= 63 and s.endswith("...") for s in shown), shown
    assert 0 < many.read <= 100 and 0 < wide.read <= 100, (many.read, wide.read)
    assert excerpt(10**5000) == "<a 16610-bit integer>"
    assert [excerpt(v) for v in ("a\nb", True, None, [1, "x"], {"a": 1})] == [
        "'a\\nb'",
        "true",
        "null",
        "[1, 'x']",
        "{'a': 1}",
    ]
