"""Activation proofs kept between runs: reused only while nothing that decides the check changed,
and only for a check that passed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.plan.proofs import KEPT, Proofs, fingerprint


def plugin(root: Path) -> Arm:
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text('{"name": "mine"}')
    (root / "skills" / "review").mkdir(parents=True)
    (root / "skills" / "review" / "SKILL.md").write_text("---\nname: review\n---\nReview.\n")
    return Arm("mine", (Part("plugin", path=root),))


@pytest.fixture
def binary(tmp_path: Path) -> Path:
    path = tmp_path / "bin" / "claude"
    path.parent.mkdir()
    path.write_text("#!/bin/sh\n")
    return path


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "path"
    folder.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    return folder


def test_the_same_inputs_give_the_same_fingerprint(tmp_path: Path, binary: Path, on_path: Path) -> None:
    arm = plugin(tmp_path / "plugin")
    assert fingerprint(arm, "claude", str(binary)) == fingerprint(arm, "claude", str(binary))


def test_what_decides_the_check_changes_the_fingerprint(tmp_path: Path, binary: Path, on_path: Path) -> None:
    arm = plugin(tmp_path / "plugin")
    first = fingerprint(arm, "claude", str(binary))
    (tmp_path / "plugin" / "skills" / "review" / "SKILL.md").write_text("---\nname: review\n---\nNew.\n")
    edited = fingerprint(arm, "claude", str(binary))
    assert edited != first, "a plugin file's content"
    assert fingerprint(arm, "opencode", str(binary)) != edited, "another agent"
    st = binary.stat()
    os.utime(binary, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    rebuilt = fingerprint(arm, "claude", str(binary))
    assert rebuilt != edited, "the agent's binary replaced"
    (on_path / "node").write_text("")  # a program a hook runs, installed or upgraded
    assert fingerprint(arm, "claude", str(binary)) != rebuilt, "a folder on PATH"
    other = Arm("mine", (Part("prompt", text="Be careful."),))
    assert fingerprint(other, "claude", str(binary)) != fingerprint(arm, "claude", str(binary))


class Memory:
    """pytest's cache as a dict, counting writes."""

    def __init__(self, value: Any = None) -> None:
        self.value, self.writes = value, 0

    def read(self) -> Any:
        return self.value

    def write(self, value: dict[str, Any]) -> None:
        self.value, self.writes = value, self.writes + 1


PASSED = {"arm": "mine", "ok": True, "problems": [], "crashed": [], "evidence": {}, "wall_s": 1.2}
FAILED = {**PASSED, "ok": False, "problems": ["hook SessionStart exited 1: boom"]}


def test_a_passed_check_is_kept_and_said_again_as_reused() -> None:
    store = Memory()
    proofs = Proofs(store.read, store.write)
    assert proofs.get("a") is None
    proofs.put([("a", PASSED)])
    again = proofs.get("a")
    assert again is not None and again["ok"] is True
    assert again["wall_s"] == 0.0 and isinstance(again["reused"], str)
    assert proofs.get("b") is None, "another fingerprint is no proof"


def test_a_failed_check_is_never_kept() -> None:
    store = Memory()
    proofs = Proofs(store.read, store.write)
    proofs.put([("a", FAILED)])
    assert store.writes == 0 and proofs.get("a") is None


def test_a_reused_result_is_not_kept_again_with_a_new_time() -> None:
    store = Memory()
    proofs = Proofs(store.read, store.write)
    proofs.put([("a", PASSED)])
    reused = proofs.get("a")
    assert reused is not None
    proofs.put([("a", reused)])
    assert store.writes == 1


@pytest.mark.parametrize(
    "kept",
    [
        None,
        [],
        "text",
        {"a": "text"},
        {"a": {"result": PASSED}},  # no time
        {"a": {"at": "2026-12-07 10:00 UTC", "result": FAILED}},
        {"a": {"at": "2026-12-07 10:00 UTC", "result": {**PASSED, "ok": "yes"}}},
    ],
)
def test_a_cache_that_is_not_what_was_written_proves_nothing(kept: Any) -> None:
    assert Proofs(Memory(kept).read, None).get("a") is None


def test_a_read_only_store_keeps_nothing() -> None:
    store = Memory()
    Proofs(store.read, None).put([("a", PASSED)])
    assert store.writes == 0


def test_the_newest_proofs_are_kept() -> None:
    store = Memory()
    proofs = Proofs(store.read, store.write)
    for i in range(KEPT + 5):
        proofs.put([(f"fp{i}", PASSED)])
    assert len(store.value) == KEPT
    assert proofs.get("fp0") is None and proofs.get(f"fp{KEPT + 4}") is not None
