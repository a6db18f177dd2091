"""Spend control: a run-wide budget shared by every xdist worker through a locked ledger.

No cell starts once the recorded spend plus the caps of the cells still running would pass the
budget. A cell's cap is --max-budget-usd when given, else the dearest cell seen so far; while
no cell has finished yet, one runs at a time so the first one calibrates the rest. A running
cell whose process died (a crashed worker) no longer holds its reservation.

The spend itself is charged per request by the model gateway (`charge`), whoever in the cell
asked (the agent, a plugin's hook, the judge), and a request that would take the run over the
budget is refused before it is sent (`admit`): the budget holds between requests, not only
between cells.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_ponybench._util import procs
from pytest_ponybench.core.records import Record, error_kind
from pytest_ponybench.store.results import locked, write_json

__all__ = ["LEDGER", "Ledger", "backoff_s", "retryable"]

LEDGER = "spend.json"


@dataclass
class Ledger:
    run_dir: Path
    budget_usd: float | None
    cap_usd: float | None = None
    poll_s: float = 0.2

    @property
    def path(self) -> Path:
        return self.run_dir / LEDGER

    def _read(self) -> dict[str, Any]:
        data: dict[str, Any]
        try:
            data = dict(json.loads(self.path.read_text()))
        except (OSError, json.JSONDecodeError, TypeError, ValueError):
            data = {}
        data.setdefault("spent_usd", 0.0)
        data.setdefault("max_cell_usd", None)
        data.setdefault("running", {})
        # Reservations of processes that no longer exist are void.
        data["running"] = {k: v for k, v in data["running"].items() if procs.alive(int(v["pid"]))}
        return data

    def state(self) -> dict[str, Any]:
        with locked(self.run_dir / ".spend.lock"):
            return self._read()

    def acquire(self, cell_id: str) -> str | None:
        """Reserve room for one cell; None when it may start, else the reason it may not."""
        if self.budget_usd is None:
            return None
        while True:
            with locked(self.run_dir / ".spend.lock"):
                data = self._read()
                known = self.cap_usd if self.cap_usd is not None else data["max_cell_usd"]
                reserved = sum(float(v["usd"]) for v in data["running"].values())
                spent = float(data["spent_usd"])
                fits = spent + reserved + (known or 0.0) <= self.budget_usd
                if fits and (known is not None or not data["running"]):
                    data["running"][cell_id] = {"usd": known or 0.0, "pid": os.getpid()}
                    write_json(self.path, data)
                    return None
                if not data["running"]:
                    return (
                        f"budget: ${spent:.4f} spent of ${self.budget_usd:g}; the next cell "
                        f"may cost ${known or 0:.4f}"
                    )
            time.sleep(self.poll_s)  # cells still running may leave room when they finish

    def release(self, cell_id: str, cost_usd: float | None) -> float:
        """A cell (or a warm-up) is done: its reservation freed, its cost (charged already, a
        request at a time) kept as the dearest cell's if it is; return the run's spend so far."""
        with locked(self.run_dir / ".spend.lock"):
            data = self._read()
            data["running"].pop(cell_id, None)
            if cost_usd is not None:
                data["max_cell_usd"] = max(float(cost_usd), float(data["max_cell_usd"] or 0.0))
            write_json(self.path, data)
            return float(data["spent_usd"])

    def admit(self, usd: float) -> str | None:
        """None when a request estimated at usd may go; else why not (the budget's words)."""
        if self.budget_usd is None:
            return None
        with locked(self.run_dir / ".spend.lock"):
            spent = float(self._read()["spent_usd"])
        if spent + usd > self.budget_usd:
            return (
                f"the run's budget of ${self.budget_usd:g} would be passed: ${spent:.4f} spent, "
                f"this request at least ${usd:.4f}"
            )
        return None

    def charge(self, usd: float) -> None:
        """What one request cost, added to the run's spend at once."""
        with locked(self.run_dir / ".spend.lock"):
            data = self._read()
            data["spent_usd"] = float(data["spent_usd"]) + usd
            write_json(self.path, data)


def retryable(record: Record) -> bool:
    """Only an API failure is retried: a quality failure, a CLI that cannot start, an arm that
    was not applied, a harness fault, a changed harness or an interrupt never are."""
    kind = error_kind(record)
    return kind is not None and kind.retried


def backoff_s(attempt: int, offline: bool) -> float:
    """Seconds before retry number attempt (1-based): short offline, exponential live."""
    return 0.1 if offline else min(60.0, 5.0 * 2 ** (attempt - 1))
