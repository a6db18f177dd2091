"""The installed CLI's own `claude plugin eval`, against the offline model server on loopback:
what it writes today is what the importer and the reader were built from."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pytest_ponybench import cli
from pytest_ponybench.cpe import read_aggregate, task_id
from pytest_ponybench.offline.server import OfflineServer
from tests.support import CLAUDE, REPO

pytestmark = pytest.mark.needs_claude
DATA = REPO / "tests" / "unit" / "data" / "cpe"


def _script_module() -> ModuleType:
    path = REPO / "scripts" / "cpe_offline.py"
    spec = importlib.util.spec_from_file_location("cpe_offline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_init_bare_writes_the_template_the_importer_tests_use(tmp_path: Path) -> None:
    assert CLAUDE is not None
    done = subprocess.run(
        [CLAUDE, "plugin", "eval", "init", "--bare", "demo", "--eval-dir", "evals"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    written = {
        p.relative_to(tmp_path / "evals").as_posix(): p.read_text()
        for p in (tmp_path / "evals").rglob("*.md")
    }
    recorded = {
        p.relative_to(DATA / "bare-template").as_posix(): p.read_text()
        for p in (DATA / "bare-template").rglob("*.md")
    }
    assert written == recorded


def test_what_the_cli_writes_reads_as_records_and_compares(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lab = _script_module()
    plugin = lab.lab_plugin(tmp_path / "careful", DATA / "careful-evals")
    with OfflineServer() as server:
        run = lab.run_cpe(server, plugin, tmp_path / "out", ["--case", "review", "--runs", "2", "-j", "2"])
    assert run.aggregate.is_file(), run.output
    data = json.loads(run.aggregate.read_text())
    assert data["schemaVersion"] == 1 and data["suite"]["ablation"] == "with-without"
    (case,) = data["cases"]
    agg = read_aggregate(run.aggregate)
    assert agg.arms == ("careful", "baseline")
    assert len(agg.records) == len(case["arms"]["with"]) + len(case["arms"]["without"]) == 4
    for rec in agg.records:
        side = "with" if rec["arm"] == "careful" else "without"
        src = case["arms"][side][rec["run"]]
        assert rec["task"] == task_id(case["name"]) and rec["valid"] is True
        assert rec["score"] == src["score"] and rec["correct"] is src["passed"]
    # With the plugin the offline agent calls its skill, which the skill_both grader scores.
    assert {r["score"] for r in agg.records if r["arm"] == "careful"} == {1}
    assert all((r["score"] or 0.0) < 1 for r in agg.records if r["arm"] == "baseline")
    assert all(r["score"] is not None for r in agg.records)
    assert cli.main(["compare", str(run.aggregate)]) == 0
    assert "careful vs baseline (offline-coin): 1 paired tasks" in capsys.readouterr().out
