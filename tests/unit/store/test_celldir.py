"""Tests for `store/celldir.py`: one cell's folder in the run dir on disk, its files by name, the
stream of whichever agent wrote it, a conversation's later sessions and a new attempt's folder."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_ponybench.agents import registry
from pytest_ponybench.store.celldir import CellDir


def test_every_agents_stream_file_is_one_the_cell_folder_knows() -> None:
    assert sorted(registry.get(n).stream_file for n in registry.names()) == sorted(CellDir.STREAMS)
    assert CellDir.STREAMS[0] == CellDir.STREAM == registry.get().stream_file


def test_the_stream_is_the_one_an_agent_wrote_and_claudes_name_before_any(tmp_path: Path) -> None:
    cell = CellDir(tmp_path / "t-a-m-r0")
    cell.path.mkdir()
    assert cell.stream == cell.path / "claude.jsonl" and cell.stderr == cell.path / "claude.stderr"
    cell.stream_named("codex.jsonl").write_text("")
    assert cell.stream == cell.path / "codex.jsonl" and cell.stderr == cell.path / "codex.stderr"


def test_a_conversations_first_session_is_the_cell_and_later_ones_are_under_turns(tmp_path: Path) -> None:
    cell = CellDir(tmp_path / "c")
    assert cell.play(1) == cell
    assert cell.play(2).path == tmp_path / "c" / "turns" / "2.1"
    assert cell.play(1, 3).path == tmp_path / "c" / "turns" / "1.3"


def test_the_seeded_manifest_of_a_cell_and_of_an_older_one(tmp_path: Path) -> None:
    cell = CellDir(tmp_path / "c")
    assert cell.read_seeded() == {}  # an older version kept none
    cell.path.mkdir()
    cell.seeded.write_text(json.dumps({"mod.py": "ab12"}))
    assert cell.read_seeded() == {"mod.py": "ab12"}
    cell.seeded.write_text("[1, 2]")
    assert cell.read_seeded() == {}


def test_each_attempt_gets_a_fresh_folder_and_the_earlier_ones_are_kept(tmp_path: Path) -> None:
    cell = CellDir(tmp_path / "cells" / "t-a-m-r0")
    assert cell.fresh() == 1 and cell.path.is_dir()
    (cell.path / "first.txt").write_text("1")
    assert cell.fresh() == 2
    (cell.path / "second.txt").write_text("2")
    assert cell.fresh() == 3
    assert sorted(p.name for p in cell.path.parent.iterdir()) == ["t-a-m-r0", "t-a-m-r0~1", "t-a-m-r0~2"]
    assert (cell.path.parent / "t-a-m-r0~1" / "first.txt").is_file()
    assert (cell.path.parent / "t-a-m-r0~2" / "second.txt").is_file()
    assert list(cell.path.iterdir()) == []
