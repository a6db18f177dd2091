"""A task's contract table (scoring/contract.py), blind references and shared check modules:
the table must quote every word of the prompt and name only real checks; the selftest's summary
line carries the contract figure and the blind references caught; and the shipped suite has a
sound table for every scored task."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pytest

from pytest_ponybench._util.paths import SUITE_FIXTURES, SUITE_TASKS
from pytest_ponybench.core.tasks import SHARED_CHECKS_DIR, load_task, task_folders
from pytest_ponybench.roles.selftest import PROPERTY, SelftestSummary, contract_figure
from pytest_ponybench.scoring.contract import CONTRACT_FILE, contract_of, parse_contract
from tests.unit._support.tasks import add_ref, problems, write_task

PROMPT = "Write `mod.py` with `add(a, b)`.\n\nReturn their sum. Use Python 3.11 only.\n"
CHECKS = {
    "test_correct_add.py": "import mod\n\ndef test_add():\n    assert mod.add(1, 2) == 3\n",
    "test_safe_add.py": "class TestBig:\n    def test_big(self):\n        pass\n",
}
TABLE = """\
# Contract

> Write `mod.py` with `add(a, b)`.
- `test_correct_add.py::test_add`

> Return their sum.
- test_correct_add.py::test_add, test_safe_add.py::TestBig::test_big

> Use Python 3.11 only.
- not checked, because the scorer's Python is 3.11 whatever the code says
"""


def task_with(tmp_path: Path, table: str | None, prompt: str = PROMPT) -> Any:
    folder = write_task(tmp_path / f"add{len(list(tmp_path.iterdir()))}", prompt=prompt, checks=CHECKS)
    if table is not None:
        (folder / "contract.md").write_text(table, encoding="utf-8")
    return load_task(folder)


def test_a_table_that_quotes_every_word_and_names_real_checks_is_sound(tmp_path: Path) -> None:
    contract = contract_of(task_with(tmp_path, TABLE))
    assert contract is not None and contract.problems == ()
    assert [r.checks for r in contract.rows] == [
        ("test_correct_add.py::test_add",),
        ("test_correct_add.py::test_add", "test_safe_add.py::TestBig::test_big"),
        (),
    ]
    assert contract.rows[2].reasons == ("the scorer's Python is 3.11 whatever the code says",)
    assert contract.figure() == "contract 3 rows (2 checked, 1 not checked)"


def test_a_task_without_a_table_is_said_not_failed(tmp_path: Path) -> None:
    task = task_with(tmp_path, None)
    assert contract_of(task) is None
    assert contract_figure(task) == ("no contract table (contract.md)", [])


def test_a_sentence_no_row_quotes_is_named(tmp_path: Path) -> None:
    table = TABLE.replace("> Return their sum.\n- test_correct_add.py::test_add, ", "> Return\n- ")
    contract = contract_of(task_with(tmp_path, table))
    assert contract is not None
    assert contract.problems == ("contract.md: prompt.md says 'their sum' but no row quotes it",)


def test_markdown_and_punctuation_do_not_count_but_words_do(tmp_path: Path) -> None:
    table = TABLE.replace("> Write `mod.py` with `add(a, b)`.", "> Write mod.py with *add* (a,\n> b)")
    assert contract_of(task_with(tmp_path, table)).problems == ()  # type: ignore[union-attr]
    table = TABLE.replace("> Return their sum.", "> Return their total.")
    found = contract_of(task_with(tmp_path, table)).problems  # type: ignore[union-attr]
    assert "contract.md: line 6: the quote is not in prompt.md: 'Return their total.'" in found
    assert "contract.md: prompt.md says 'return their sum' but no row quotes it" in found


@pytest.mark.parametrize(
    ("bullet", "says"),
    [
        (
            "- test_correct_add.py::test_sub",
            "line 3: test_correct_add.py::test_sub is not a check of checks/",
        ),
        ("- test_safe_add.py::test_big", "test_safe_add.py::test_big is not a check of checks/"),
        ("- grader:review", "line 3: grader:review is not a [[graders]] name of task.toml"),
        ("- checked by hand", "line 3: bullet 'checked by hand' names no check"),
        ("- not checked, because no", "line 3: 'not checked, because' needs a reason"),
    ],
)
def test_each_bad_bullet_is_named_with_its_line(tmp_path: Path, bullet: str, says: str) -> None:
    table = TABLE.replace("- `test_correct_add.py::test_add`", bullet)
    found = contract_of(task_with(tmp_path, table)).problems  # type: ignore[union-attr]
    assert any(says in p for p in found), found


def test_a_quote_without_bullets_and_a_bullet_without_a_quote_are_named(tmp_path: Path) -> None:
    rows, found = parse_contract(
        "- test_correct.py::test_a\n\n> Write it.\n\n> Return it.\n- test_correct.py::test_a\n"
    )
    assert [r.quote for r in rows] == ["Write it. Return it."]  # consecutive quotes are one row
    assert found == ["line 1: a bullet before any quote ('> ' lines from the prompt)"]
    rows, found = parse_contract("> Write it.\n")
    assert found == ["line 1: the quote has no bullet under it (checks, or 'not checked, because ...')"]


# --- blind references and shared checks in task folders -----------------------------------


def test_a_reference_declares_itself_blind(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t")
    add_ref(folder, "careless", 'expect = "incorrect, safe"\nblind = true\n')
    add_ref(folder, "usual", 'expect = "correct, safe"\n')
    assert [r.blind for r in load_task(folder).refs] == [True, False]
    (folder / "refs" / "careless" / "ref.toml").write_text('expect = "incorrect, safe"\nblind = "yes"\n')
    assert problems(folder) == [
        f"{folder}: refs/careless/ref.toml: key 'blind' must be true or false, not 'yes'"
    ]


def test_shared_check_modules_are_laid_beside_the_task_s_checks(tmp_path: Path) -> None:
    toml = 'kind = "surgical"\nfile = "mod.py"\naxis = "correct"\nshared_checks = ["payloads.py"]\n'
    folder = write_task(tmp_path / "tasks" / "t", toml)
    shared = tmp_path / "tasks" / SHARED_CHECKS_DIR
    assert problems(folder) == [
        f"{folder}: task.toml: key 'shared_checks': 'payloads.py' is not a file of {shared}"
    ]
    (tmp_path / "tasks" / SHARED_CHECKS_DIR).mkdir()
    (tmp_path / "tasks" / SHARED_CHECKS_DIR / "payloads.py").write_text("SHELL = [';id']\n")
    task = load_task(folder)
    assert task.checks["payloads.py"] == b"SHELL = [';id']\n"
    assert [p.name for p in task_folders(tmp_path / "tasks")] == ["t"]  # _checks is no task
    (folder / "task.toml").write_text(toml.replace('"payloads.py"', '"test_x.py", "../p.py"'))
    assert len(problems(folder)) == 2


# --- the selftest's summary line ------------------------------------------------------------


def report(task: str, ref: str, kind: str, passed: bool, blind: bool = False) -> pytest.TestReport:
    decl = {
        "task": task,
        "reference": ref,
        "kind": kind,
        "expect": "",
        "shortfalls": [],
        "unproven": [],
        "mutants": ("mutants 5/5 killed (0 equivalent)", False),
        "contract": "contract 3 rows (2 checked, 1 not checked)",
        "blind": blind,
    }
    outcome: Literal["passed", "failed"] = "passed" if passed else "failed"
    return pytest.TestReport(
        f"selftest::{task}[{ref}]",
        ("", 0, ""),
        {},
        outcome,
        None,
        "call",
        [],
        user_properties=[(PROPERTY, decl)],
    )


def test_the_summary_line_carries_the_contract_and_the_blind_references_caught() -> None:
    summary = SelftestSummary()
    summary.pytest_runtest_logreport(report("t", "good", "correct", True))
    summary.pytest_runtest_logreport(report("t", "careless", "safe+incorrect", True, blind=True))
    summary.pytest_runtest_logreport(report("t", "slips", "unsafe", False, blind=True))
    summary.pytest_runtest_logreport(report("t", "fine", "correct", True, blind=True))  # not flawed
    broken = pytest.TestReport(
        "selftest::t:contract",
        ("", 0, ""),
        {},
        "failed",
        None,
        "call",
        [],
        user_properties=[(PROPERTY + "_contract", "t")],
    )
    summary.pytest_runtest_logreport(broken)
    (line, flagged), (total, _) = summary.lines()
    assert line.startswith(
        "t: 4 refs (2 correct, 1 unsafe, 1 safe+incorrect); 3/4 as declared; mutants 5/5 killed"
    )
    assert "; blind flawed caught 1/2; contract 3 rows (2 checked, 1 not checked) -- " in line
    assert "CONTRACT TABLE BROKEN (selftest::t:contract says how)" in line and flagged
    assert "blind flawed caught 1/2; " in total


# --- the shipped suite ------------------------------------------------------------------------


def test_every_table_of_the_shipped_suite_is_sound() -> None:
    folders = [p for p in task_folders(SUITE_TASKS) if (p / "contract.md").is_file()]
    tables = [load_task(p, SUITE_FIXTURES) for p in folders]
    assert tables, "the shipped suite has no contract table"
    for task in tables:
        contract = contract_of(task)
        assert contract is not None and contract.problems == (), (task.id, contract)
        assert any(row.checked for row in contract.rows), task.id


def test_every_scored_task_of_the_shipped_suite_has_a_table_and_three_blind_flawed_references() -> None:
    # A user's suite may start without tables (the selftest says so); the shipped one may not:
    # each scored task maps every sentence, and its checks face three solutions written blind.
    tasks = [load_task(p, SUITE_FIXTURES) for p in task_folders(SUITE_TASKS)]
    scored = [t for t in tasks if t.scored]
    assert len(scored) >= 53, len(scored)
    no_table = [t.id for t in scored if contract_of(t) is None]
    assert no_table == [], f"scored tasks without {CONTRACT_FILE}: {no_table}"
    # Tasks answered in chat are graded on the transcript; no file solution can be written blind.
    few_blind = {
        t.id: n
        for t in scored
        if t.kind != "open"
        and (n := sum(1 for r in t.references if r.blind and r.expect.kind != "correct")) < 3
    }
    assert few_blind == {}, f"tasks with fewer than three blind flawed references: {few_blind}"
