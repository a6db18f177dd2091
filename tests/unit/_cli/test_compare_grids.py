"""`ponybench compare BASE_RUN CAND_RUN` of runs whose grids differ: every cell only one run has
is named on stderr, and the verdict is of the shared grid (no other test reaches these notes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_ponybench import cli
from tests.unit._support.rundirs import EFFECT, write_run


def test_cells_only_in_one_run_are_named_and_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = write_run(tmp_path / "base", EFFECT, seed=1, tasks=20)
    cand = write_run(tmp_path / "cand", EFFECT, seed=2, tasks=17)
    assert cli.main(["compare", str(base), str(cand)]) == cli.OK
    out, err = capsys.readouterr()
    # Tasks t17-t19 are only in the base run: 3 tasks x 2 arms x 3 runs.
    assert f"note: 18 cells only in {base} (tasks t17, t18, t19); compared on the shared grid only" in err
    assert "cells only in " + str(cand) not in err
    assert "17 paired tasks" in out and "20 paired tasks" not in out
