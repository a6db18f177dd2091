"""Tests for `store/spend.py`: the run's budget kept in a locked ledger on disk (real files, real
processes), what a request may spend, and which failed cells are retried and after how long."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.core.records import Record
from pytest_ponybench.store.spend import LEDGER, Ledger, backoff_s, retryable


def test_without_a_budget_every_cell_and_request_may_go(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path, budget_usd=None)
    assert ledger.acquire("c1") is None and ledger.admit(1e9) is None
    assert not (tmp_path / LEDGER).exists()


def test_the_first_cell_calibrates_and_the_spend_is_charged_per_request(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path, budget_usd=1.0)
    assert ledger.acquire("c1") is None  # nothing known yet: the first runs alone
    assert ledger.state()["running"]["c1"]["usd"] == 0.0
    ledger.charge(0.25)
    ledger.charge(0.05)
    assert ledger.release("c1", 0.3) == pytest.approx(0.3)
    state = ledger.state()
    assert (
        state["running"] == {} and state["max_cell_usd"] == 0.3 and state["spent_usd"] == pytest.approx(0.3)
    )
    assert ledger.acquire("c2") is None  # 0.3 spent + 0.3 known <= 1
    assert ledger.state()["running"]["c2"]["usd"] == 0.3
    ledger.charge(0.55)
    ledger.release("c2", 0.2)  # cheaper than the dearest: the dearest stays
    assert ledger.state()["max_cell_usd"] == 0.3
    # 0.85 spent + 0.3 for the next cell would pass 1.0, and nothing runs that could free room.
    assert ledger.acquire("c3") == "budget: $0.8500 spent of $1; the next cell may cost $0.3000"


def test_a_given_cap_is_the_cells_reservation(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path, budget_usd=1.0, cap_usd=0.4)
    assert ledger.acquire("c1") is None and ledger.acquire("c2") is None  # 0.8 reserved
    assert sorted(ledger.state()["running"]) == ["c1", "c2"]


def test_a_request_that_would_pass_the_budget_is_refused_in_words(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path, budget_usd=2.0)
    ledger.charge(1.9)
    assert ledger.admit(0.05) is None
    assert ledger.admit(0.2) == (
        "the run's budget of $2 would be passed: $1.9000 spent, this request at least $0.2000"
    )


def test_a_dead_processs_reservation_is_void(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    running: dict[str, Any] = {"gone": {"usd": 5.0, "pid": dead.pid}, "mine": {"usd": 0.1, "pid": 1}}
    (tmp_path / LEDGER).write_text(json.dumps({"spent_usd": 0.5, "max_cell_usd": 0.1, "running": running}))
    assert sorted(Ledger(tmp_path, budget_usd=1.0).state()["running"]) == ["mine"]  # pid 1 is alive


@pytest.mark.parametrize("text", ["", "{torn", "[1, 2]", "null"])
def test_an_unreadable_ledger_reads_as_a_new_one(tmp_path: Path, text: str) -> None:
    (tmp_path / LEDGER).write_text(text)
    assert Ledger(tmp_path, budget_usd=1.0).state() == {"spent_usd": 0.0, "max_cell_usd": None, "running": {}}


@pytest.mark.parametrize(
    ("record", "retried"),
    [
        ({"valid": True}, False),
        ({"valid": False, "error_kind": "api", "error": "API error 529"}, True),
        ({"valid": False, "error_kind": "budget"}, False),
        ({"valid": False, "error_kind": "start"}, False),
        ({"valid": False, "error": "harness error: the disk"}, False),  # an older record, by its words
        ({"valid": False, "error": "overloaded"}, True),  # an older record's unknown error: the API's
    ],
)
def test_only_an_api_failure_is_retried(record: Record, retried: bool) -> None:
    assert retryable(record) is retried


def test_the_backoff_is_short_offline_and_doubles_live_up_to_a_minute() -> None:
    assert [backoff_s(n, offline=True) for n in (1, 5)] == [0.1, 0.1]
    assert [backoff_s(n, offline=False) for n in range(1, 7)] == [5.0, 10.0, 20.0, 40.0, 60.0, 60.0]
