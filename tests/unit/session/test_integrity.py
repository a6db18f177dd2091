"""The integrity baseline: every way of changing a watched file is seen, the changes a session
makes by itself (other workers' records, bytecode caches) are not. Real files in tmp_path."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from pytest_ponybench.session import integrity
from pytest_ponybench.session.integrity import Baseline


@pytest.fixture
def harness(tmp_path: Path) -> Path:
    """A scratch copy of what a cell must not touch: task checks, a fixture, a package."""
    for rel, text in {
        "tasks/sql_lookup/checks/test_safe.py": "def test_safe():\n    assert run() == 1\n",
        "tasks/sql_lookup/prompt.md": "Write lookup().\n",
        "fixtures/shop/cart.py": "TOTAL = 0\n",
        "pkg/_probe/ponybench_probe.py": "def _emit(ev):\n    pass\n",
        "pkg/__pycache__/scoring.cpython-311.pyc": "bytecode",
    }.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    time.sleep(0.02)  # the kernel's clock for ctime is coarse: changes below land on a later tick
    return tmp_path


def watched(root: Path) -> list[Path]:
    return [root / "tasks", root / "fixtures", root / "pkg"]


def test_nothing_changed(harness: Path) -> None:
    base = Baseline.take(watched(harness))
    for p in harness.rglob("*"):  # reading is not changing
        if p.is_file():
            p.read_bytes()
    assert base.changed() == []


def test_a_rewrite_with_the_same_size_and_the_old_mtime_is_seen(harness: Path) -> None:
    check = harness / "tasks/sql_lookup/checks/test_safe.py"
    base = Baseline.take(watched(harness))
    before = check.stat()
    check.write_text(check.read_text().replace("== 1", "or 1"))  # the same size
    os.utime(check, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the mtime set back
    assert check.stat().st_size == before.st_size and check.stat().st_mtime_ns == before.st_mtime_ns
    assert base.changed() == [str(check)]


@pytest.mark.parametrize("how", ["add", "remove", "chmod", "symlink", "rename", "remove folder"])
def test_every_kind_of_change_is_named(harness: Path, how: str) -> None:
    base = Baseline.take(watched(harness))
    probe = harness / "pkg/_probe/ponybench_probe.py"
    if how == "add":
        (harness / "tasks/sql_lookup/checks/conftest.py").write_text("collect_ignore = ['test_safe.py']\n")
        expected = [harness / "tasks/sql_lookup/checks/conftest.py"]
    elif how == "remove":
        probe.unlink()
        expected = [probe]
    elif how == "chmod":
        probe.chmod(0o777)
        expected = [probe]
    elif how == "symlink":
        probe.unlink()
        probe.symlink_to(harness / "fixtures/shop/cart.py")
        expected = [probe]
    elif how == "rename":
        probe.rename(probe.with_name("renamed.py"))
        expected = [probe.with_name("renamed.py"), probe]
    else:
        for p in sorted((harness / "fixtures").rglob("*"), reverse=True):
            p.unlink() if p.is_file() else p.rmdir()
        expected = [harness / "fixtures/shop", harness / "fixtures/shop/cart.py"]
    changes = base.changed()
    assert changes == sorted(map(str, expected))
    assert integrity.message(changes).startswith(f"the agent changed the harness: {changes[0]}")


def test_bytecode_caches_may_grow_but_not_change(harness: Path) -> None:
    base = Baseline.take(watched(harness))
    (harness / "pkg/__pycache__/verdict.cpython-311.pyc").write_text("new, written by a lazy import")
    (harness / "pkg/_probe/__pycache__").mkdir()
    (harness / "pkg/_probe/__pycache__/ponybench_probe.cpython-311.pyc").write_text("new")
    assert base.changed() == []
    (harness / "pkg/__pycache__/scoring.cpython-311.pyc").write_text("planted")
    assert base.changed() == [str(harness / "pkg/__pycache__/scoring.cpython-311.pyc")]


def records(n: int, start: int = 0) -> str:
    return "".join(
        json.dumps({"task": "t", "cell_id": f"c{i}", "correct": False}) + "\n" for i in range(start, n)
    )


def test_results_may_grow_but_earlier_records_must_stay(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text(records(3))
    base = Baseline.take([], append_only=[results])
    with results.open("a") as fh:  # another worker's record lands while the cell runs
        fh.write(records(4, start=3))
    assert base.changed() == []
    results.write_text(results.read_text().replace('"c1", "correct": false', '"c1", "correct": true '))
    assert base.changed() == [str(results)]


@pytest.mark.parametrize("how", ["truncate", "delete", "replace"])
def test_results_cut_or_replaced_is_a_change(tmp_path: Path, how: str) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text(records(3))
    base = Baseline.take([], append_only=[results])
    if how == "truncate":
        results.write_text(records(1))
    elif how == "delete":
        results.unlink()
    else:
        results.write_text(records(3).replace("false", "true "))
    assert base.changed() == [str(results)]


def test_a_results_file_that_did_not_exist_yet_may_appear(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    base = Baseline.take([], append_only=[results])
    results.write_text(records(1))
    assert base.changed() == []


def test_a_missing_watched_folder_that_appears_is_a_change(tmp_path: Path) -> None:
    base = Baseline.take([tmp_path / "fixtures"])
    assert base.changed() == []
    (tmp_path / "fixtures").mkdir()
    assert base.changed() == [str(tmp_path / "fixtures")]


def test_message_names_the_first_path_and_counts_the_rest() -> None:
    assert integrity.message(["/a", "/b", "/c"]) == "the agent changed the harness: /a (and 2 more)"
    assert integrity.message(["/a"]) == "the agent changed the harness: /a"


def test_a_single_file_can_be_watched(tmp_path: Path) -> None:
    conftest = tmp_path / "conftest.py"
    conftest.write_text("def pytest_ponybench_record(record):\n    return {}\n")
    time.sleep(0.02)
    base = Baseline.take(integrity.harness_paths(tmp_path / "tasks", tmp_path / "fixtures", conftest))
    assert base.changed() == []
    conftest.write_text("import os\nos.system('id')\n")
    assert base.changed() == [str(conftest)]


def test_the_package_itself_is_watched() -> None:
    paths = integrity.harness_paths(Path("tasks"), Path("fixtures"))
    assert integrity.PACKAGE in paths
    assert (integrity.PACKAGE / "_probe" / "ponybench_probe.py").is_file()


def test_a_watch_carries_what_its_check_saw_into_the_next_cell(harness: Path) -> None:
    """The next cell's baseline is the state the last check saw: equal to a fresh baseline when
    nothing changed, and a change made between two cells is reported by the next check."""
    watch = integrity.Watch(tuple(watched(harness)))
    first = watch.take()
    (harness / "pkg/__pycache__/verdict.cpython-311.pyc").write_text("a lazy import's bytecode")
    assert watch.check(first) == []
    second = watch.take()
    assert second.trees == Baseline.take(watched(harness)).trees
    check = harness / "tasks/sql_lookup/checks/test_safe.py"
    check.write_text("def test_safe():\n    pass\n")  # between the two cells
    assert watch.check(second) == [str(check)]
    assert watch.check(watch.take()) == []  # reported once; the next cell starts from it


def test_a_watch_reads_the_append_only_files_afresh_for_each_cell(tmp_path: Path) -> None:
    """The record appended after a check is covered by the next cell's baseline."""
    results = tmp_path / "results.jsonl"
    results.write_text(records(1))
    watch = integrity.Watch((tmp_path / "tasks",))
    assert watch.check(watch.take(append_only=[results])) == []
    with results.open("a") as fh:  # this worker's record, appended after its check
        fh.write(records(2, start=1))
    base = watch.take(append_only=[results])
    results.write_text(records(2).replace('"c1", "correct": false', '"c1", "correct": true '))
    assert watch.check(base) == [str(results)]
