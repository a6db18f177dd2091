"""`ponybench import-skill-creator`: skill-creator's evals in the forms public skill repositories
ship (data/skill-creator: a skill at its repository's root, a plugin's skill, a trigger set
alone) become task folders the task loader reads; every malformed input is one problem naming
its file and key, before anything is written."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench import cli
from pytest_ponybench.core.tasks import load_tasks
from pytest_ponybench.cpe.cases import CaseError
from pytest_ponybench.cpe.mapping import DIFFERS, NOT_IMPORTED
from pytest_ponybench.cpe.skillcreator import import_skill_suite, render
from tests.support import REPO, doc_example
from tests.unit._support import DATA as UNIT_DATA

DATA = UNIT_DATA / "skill-creator"


@pytest.fixture
def suites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA, tmp_path / "repos")
    monkeypatch.chdir(tmp_path / "repos")
    return tmp_path / "repos"


def toml(folder: Path) -> dict[str, Any]:
    return tomllib.loads((folder / "task.toml").read_text())


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_skill_at_its_repository_s_root(
    suites: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = suites / "at-root"
    monkeypatch.chdir(root)
    code, out, err = run_cli(capsys, "import-skill-creator", ".")
    assert code == 0, err
    tasks = root / "benchmarks" / "tasks"
    assert sorted(p.name for p in tasks.iterdir()) == [
        "csv-summary_1",
        "csv-summary_2",
        *(f"csv-summary_trigger_{n}" for n in range(1, 5)),
    ]
    first = tasks / "csv-summary_1"
    assert (first / "prompt.md").read_text() == (
        "What is in evals/files/orders.csv? Keep it short.\n\nInput files: evals/files/orders.csv\n"
    )
    assert (first / "seed" / "evals" / "files" / "orders.csv").read_bytes() == (
        root / "evals" / "files" / "orders.csv"
    ).read_bytes()
    assert toml(first) == {
        "kind": "open",
        "graders": [
            {
                "name": "expectation_1",
                "type": "llm",
                "criteria": "The reply names the columns id, item and price",
            },
            {"name": "expectation_2", "type": "llm", "criteria": "The reply says there are 4 rows"},
            {"name": "expectation_3", "type": "llm", "criteria": "The reply points out the empty price"},
        ],
    }
    # Statements about a file the run writes are judged on the diff, the rest on the reply.
    assert [g.get("on") for g in toml(tasks / "csv-summary_2")["graders"]] == ["diff", "diff"]
    imported = (tasks / "csv-summary_2" / "IMPORTED.md").read_text()
    assert "A summary.md holding the columns, the row count and the problems found." in imported
    # The trigger set: one task per query, as skill-creator runs a query (3 runs of 8 turns).
    assert toml(tasks / "csv-summary_trigger_1") == {
        "kind": "open",
        "expect_fire": True,
        "runs": 3,
        "max_turns": 8,
    }
    assert toml(tasks / "csv-summary_trigger_3")["expect_fire"] is False
    assert (
        tasks / "csv-summary_trigger_4" / "prompt.md"
    ).read_text() == "what's the difference between CSV and TSV?\n"
    # The skill is the arm, against baseline.
    assert '  csv_summary = { skills = "." }' in out and "--arm csv_summary=skills:." in out
    assert "--tasks csv-summary_1,csv-summary_2,csv-summary_trigger_1" in out
    assert "judged on the reply, or on the diff where it names a file (expectation_1, expectation_2)" in out
    loaded = {t.id: t for t in load_tasks(tasks)}
    assert loaded["csv-summary_1"].kind == "open" and len(loaded["csv-summary_1"].graders) == 3
    fire = loaded["csv-summary_trigger_1"].expect_fire
    assert fire is not None and fire.for_arm("csv_summary", "skills") is True
    # A second import leaves every folder as it is.
    code, out, _ = run_cli(capsys, "import-skill-creator", ".")
    assert code == 0 and out.count("exists, left alone") == 6


def test_a_plugin_s_skill_with_a_suite_s_own_keys(suites: Path) -> None:
    done = import_skill_suite(suites / "in-plugin" / "skills" / "pager", suites / "tasks")
    task, *triggers = done.tasks
    assert task.task == "pager_long-log"  # eval_name, which many suites add, names the task
    assert [(t.task, t.toml["expect_fire"]) for t in triggers] == [
        ("pager_trigger_1", True),
        ("pager_trigger_2", False),
    ]
    assert [g["criteria"] for g in toml(suites / "tasks" / task.task)["graders"]] == [
        "Reads the log in chunks rather than all at once",
        "Reports the timestamp of the first error",
    ]
    assert done.arm == ("pager", "plugin:in-plugin")
    said = {(i.kind, i.text) for i in task.items}
    assert (NOT_IMPORTED, "key 'must_have' is not skill-creator's schema; not read") in said
    assert (DIFFERS, "its statements are under 'assertions': read as skill-creator's expectations") in said
    out = render(done)
    assert "suite: in-plugin/skills/pager/evals/evals.json: key 'description' is not skill-creator's" in out
    assert "the skill is one of a plugin's (in-plugin): the arm loads the whole plugin" in out


def test_a_trigger_set_alone(suites: Path) -> None:
    done = import_skill_suite(suites / "triggers-only" / "evals" / "trigger_eval.json", suites / "tasks")
    assert [(t.task, t.toml["expect_fire"]) for t in done.tasks] == [
        ("commit-message_trigger_1", True),
        ("commit-message_trigger_2", False),
    ]  # no evals.json: the skill's name is its SKILL.md's
    assert done.arm == ("commit_message", "skills:triggers-only")


EVALS = {
    "skill_name": "csv-summary",
    "evals": [{"id": 1, "prompt": "Do it.", "expectations": ["It is done"]}],
}


def with_evals(root: Path, data: Any, name: str = "evals.json") -> Path:
    path = root / "at-root" / "evals" / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("{not json", "evals/evals.json: not valid JSON at line 1 column 2"),
        ({"evals": []}, "evals/evals.json: key 'skill_name' must be a non-empty string, not null"),
        ({"skill_name": "s", "evals": {}}, "evals/evals.json: key 'evals' must be a list of evals, not {}"),
        ({**EVALS, "evals": ["x"]}, "evals/evals.json: evals[0]: must be an object with id, prompt"),
        (
            {**EVALS, "evals": [{"id": 1, "expectations": []}]},
            "evals[0]: key 'prompt' must be a non-empty string",
        ),
        (
            {**EVALS, "evals": [{"id": True, "prompt": "p"}]},
            "evals[0]: key 'id' must be a number or a string",
        ),
        (
            {**EVALS, "evals": [{"id": 1, "prompt": "p", "expectations": "x"}]},
            "key 'expectations' must be a list",
        ),
        (
            {**EVALS, "evals": [{"id": 1, "prompt": "p", "expectations": [3]}]},
            "key 'expectations' must be a list",
        ),
        (
            {**EVALS, "evals": [{"id": 1, "prompt": "p", "files": "a.csv"}]},
            "key 'files' must be a list of paths",
        ),
        (
            {**EVALS, "evals": [{"id": 1, "prompt": "p", "files": ["../secret.txt"]}]},
            "evals[0]: key 'files[0]' must be a path inside the skill's folder, not '../secret.txt'",
        ),
        (
            {**EVALS, "evals": [{"id": 1, "prompt": "p", "files": ["evals/files/gone.csv"]}]},
            "evals[0]: key 'files[0]': 'evals/files/gone.csv' does not exist",
        ),
        (
            {**EVALS, "evals": [{"id": 1, "prompt": "p", "expected_output": 2}]},
            "key 'expected_output' must be",
        ),
        (
            {**EVALS, "evals": [{"id": 1, "prompt": "p"}, {"id": 1, "prompt": "q"}]},
            "evals/evals.json: id '1' is given to more than one eval",
        ),
    ],
)
def test_a_malformed_evals_json_is_one_clear_error(
    suites: Path, capsys: pytest.CaptureFixture[str], data: Any, problem: str
) -> None:
    with_evals(suites, data)
    with pytest.raises(CaseError) as exc:
        import_skill_suite(suites / "at-root", suites / "tasks", cwd=suites / "at-root")
    assert any(problem in p for p in exc.value.problems), exc.value.problems
    assert not (suites / "tasks").exists()
    code, out, err = run_cli(
        capsys, "import-skill-creator", str(suites / "at-root"), "-o", str(suites / "tasks")
    )
    assert code == 2 and not out and err.startswith("ponybench: error: the suite is not imported:")
    assert err.count("ponybench: error:") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (
            [{"query": "q", "should_trigger": "yes"}],
            "trigger-evals.json: [0]: key 'should_trigger' must be true or false",
        ),
        (
            [{"query": "", "should_trigger": True}],
            "trigger-evals.json: [0]: key 'query' must be a non-empty string",
        ),
        (
            [{"query": "q", "should_trigger": True}, {"query": "q", "should_trigger": False}],
            "trigger-evals.json: query 'q' is given with should_trigger true and false",
        ),
    ],
)
def test_a_malformed_trigger_set_is_one_clear_error(suites: Path, data: Any, problem: str) -> None:
    with_evals(suites, data, "trigger-evals.json")
    with pytest.raises(CaseError) as exc:
        import_skill_suite(suites / "at-root", suites / "tasks", cwd=suites / "at-root")
    assert any(problem in p for p in exc.value.problems), exc.value.problems


def test_what_is_not_a_skill_creator_suite(suites: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "import-skill-creator", "nowhere")
    assert code == 2 and "nowhere: no such file or folder" in err
    (suites / "loose").mkdir()
    code, _, err = run_cli(capsys, "import-skill-creator", "loose")
    assert code == 2 and "no SKILL.md here or above" in err
    (suites / "at-root" / "evals" / "evals.json").unlink()
    (suites / "at-root" / "evals" / "trigger-evals.json").unlink()
    code, _, err = run_cli(capsys, "import-skill-creator", "at-root")
    assert code == 2 and "at-root/evals: no evals.json and no trigger set" in err
    (suites / "at-root" / "notes.json").write_text('{"a": 1}')
    code, _, err = run_cli(capsys, "import-skill-creator", "at-root/notes.json")
    assert code == 2 and "at-root/notes.json: neither skill-creator's evals.json" in err


def test_a_file_linked_out_of_the_skill_is_refused(suites: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the host's secret\n")
    (suites / "at-root" / "evals" / "files" / "leak.csv").symlink_to(secret)
    with_evals(suites, {**EVALS, "evals": [{"id": 1, "prompt": "p", "files": ["evals/files/leak.csv"]}]})
    with pytest.raises(CaseError, match="outside the suite"):
        import_skill_suite(suites / "at-root", suites / "tasks", cwd=suites / "at-root")
    assert not (suites / "tasks").exists()


def test_the_docs_example_is_real_output(
    suites: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every line of docs/cpe.md's skill-creator example (but its `...`) is this command's output."""
    command = "ponybench import-skill-creator ."
    monkeypatch.chdir(suites / "at-root")
    code, out, _ = run_cli(capsys, *command.split()[1:])
    assert code == 0
    printed = out.splitlines()
    for line in doc_example(REPO / "docs" / "cpe.md", command):
        assert line in printed, line
