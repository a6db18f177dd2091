"""An imported `claude plugin eval` suite measures what the CLI measures: the installed CLI runs
its own `claude plugin eval` on a suite in the forms plugin repositories ship
(tests/unit/data/cpe/fidelity-evals), ponybench runs the import of the same suite, both against
the offline model server with the same offline agent, and the two agree grader by grader and on
the tools the model is offered in the first request of each session. A grader the import names
as never passing fails in every CPE run; the judge is asked as often in both."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pytest_ponybench.cpe import task_id
from pytest_ponybench.cpe.importer import ImportResult, import_suite
from pytest_ponybench.cpe.mapping import NEVER, NOT_IMPORTED
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.store.celldir import CellDir
from tests.support import REPO, records, run_dirs

pytestmark = pytest.mark.needs_claude
SUITE = REPO / "tests" / "unit" / "data" / "cpe" / "fidelity-evals"
MODEL = "offline-coin"  # calls the plugin's skill when it is offered, then answers
HOOK = "ponybench-offline: good="  # the careful plugin's SessionStart hook output: the with-arm
ARMS = {"with": "careful", "without": "baseline"}
DEFERRED_INTRO = "Use ToolSearch with query"
MOCKED = "mcp__notes__search"  # the suite's mocks/notes stand-in: CPE starts it, and so does a cell


def _lab() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cpe_offline", REPO / "scripts" / "cpe_offline.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _texts(body: dict[str, Any]) -> list[str]:
    out: list[str] = []
    system = body.get("system")
    blocks = system if isinstance(system, list) else [{"text": system}] if isinstance(system, str) else []
    out += [str(b.get("text", "")) for b in blocks if isinstance(b, dict)]
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            out.append(content)
        else:
            out += [
                str(b.get("text", ""))
                for b in content or []
                if isinstance(b, dict) and b.get("type") == "text"
            ]
    return out


def offered(body: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(the tools of the request, the deferred tools its conversation names for ToolSearch)."""
    names = [str(t.get("name")) for t in body.get("tools") or []]
    deferred: list[str] = []
    for text in _texts(body):
        if DEFERRED_INTRO in text:
            after = text.split(DEFERRED_INTRO, 1)[1].split("\n", 1)[1]
            deferred = after.split("\n\n", 1)[0].strip().splitlines()
    return names, deferred


def cpe_first_requests(requests: list[dict[str, Any]], prompts: dict[str, str]) -> dict[tuple[str, str], Any]:
    """(case, with | without) -> the first agent request of that session in CPE's request log."""
    first: dict[tuple[str, str], Any] = {}
    for req in requests:
        body = req.get("body") or {}
        if body.get("model") != MODEL or not body.get("tools"):
            continue
        texts = "\n".join(_texts(body))
        for case, prompt in prompts.items():
            if prompt in texts:
                first.setdefault((case, "with" if HOOK in texts else "without"), offered(body))
    return first


def run_cpe(tmp_path: Path, args: list[str]) -> tuple[Path, dict[str, Any], list[dict[str, Any]]]:
    lab = _lab()
    plugin = lab.lab_plugin(tmp_path / "careful", SUITE)
    with OfflineServer() as server:
        done = lab.run_cpe(server, plugin, tmp_path / "cpe-out", ["--runs", "1", "--model", MODEL, *args])
    assert done.aggregate.is_file(), done.output
    return plugin, json.loads(done.aggregate.read_text()), done.requests


def run_ponybench(
    pytester: pytest.Pytester, plugin: Path, tasks: list[str], arms: list[str], **grants: Any
) -> tuple[ImportResult, list[dict[str, Any]], Path]:
    root = pytester.path
    shutil.copytree(plugin, root / "careful")
    done = import_suite(root / "careful" / "evals", root / "benchmarks" / "tasks", cwd=root, **grants)
    shutil.copy(REPO / "benchmarks" / "test_cells.py", root / "benchmarks" / "test_cells.py")
    (root / "pyproject.toml").write_text(
        '[tool.ponybench]\nout = "runs"\n\n[tool.ponybench.arms]\n'
        'baseline = {}\ncareful = { plugin = "careful" }\n'
    )
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        MODEL,
        "--runs",
        "1",
        "--tasks",
        ",".join(tasks),
        "--arms",
        ",".join(arms),
        "-p",
        "no:cacheprovider",
    )
    (run_dir,) = run_dirs(root)
    recs = records(run_dir)
    assert len(recs) == len(tasks) * len(arms), result.stdout.str()[-3000:]
    assert all(r["valid"] for r in recs), [r["reason"] for r in recs]
    return done, recs, run_dir


def ponybench_offer(run_dir: Path, rec: dict[str, Any]) -> tuple[list[str], list[str]]:
    log = CellDir(run_dir / "cells" / rec["cell_id"]).requests
    bodies = [json.loads(line)["body"] for line in log.read_text().splitlines() if line.strip()]
    return offered(next(b for b in bodies if b.get("model") == MODEL and b.get("tools")))


def test_cpe_and_the_import_agree_grader_by_grader_and_on_the_tools(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    plugin, aggregate, requests = run_cpe(tmp_path, ["--tag", "fidelity", "-j", "2"])
    cases = {c["name"]: c for c in aggregate["cases"]}
    assert set(cases) == {"explain-the-review", "route-review", "route-negative", "trace-checks"}
    prompts = {name: c["promptMarkdown"].strip() for name, c in cases.items()}
    tasks = sorted(task_id(n) for n in cases)
    done, recs, run_dir = run_ponybench(pytester, plugin, tasks, list(ARMS.values()))
    assert list(done.skipped) == ["evals/rejected"]  # CPE could not load it either
    named = {
        (w.draft.task, i.kind, i.text.split("'")[1])
        for w in done.tasks
        for i in w.draft.items
        if "grader '" in i.text
    }
    cpe_offers = cpe_first_requests(requests, prompts)
    compared = 0
    for name, case in cases.items():
        task = task_id(name)
        for side, arm in ARMS.items():
            (cpe_run,) = case["arms"][side]
            rec = next(r for r in recs if r["task"] == task and r["arm"] == arm)
            ours = {g["name"]: g for g in rec["graders"]}
            for g in cpe_run["graders"]:
                if g["name"] not in ours:
                    # not imported: named, and a grader named as never passing failed in CPE too
                    kinds = {k for t, k, n in named if t == task and n == g["name"]}
                    assert kinds & {NEVER, NOT_IMPORTED}, (task, g["name"])
                    if NEVER in kinds:
                        assert g["passed"] is False, (task, side, g)
                    continue
                assert ours[g["name"]]["passed"] is g["passed"], (task, side, g, ours[g["name"]])
                if g.get("judgeVotes") is not None:
                    runs = {r["run"] for r in ours[g["name"]]["runs"]}
                    assert len(runs) == len(g["judgeVotes"]) == 3, (task, g["name"])
                compared += 1
            for never in (n for t, k, n in named if t == task and k == NEVER and n in ours):
                assert ours[never]["passed"] is False and not any(
                    c["passed"] for c in cpe_run["graders"] if c["name"] == never
                ), (task, never)
            tools, deferred = cpe_offers[(name, side)]
            # CPE starts its mocks/ stand-ins as MCP servers, and a cell starts the imported ones.
            assert MOCKED in deferred, deferred
            assert ponybench_offer(run_dir, rec) == (tools, deferred), (task, side)
    assert compared >= 16
    # The issue's own case: [Bash, Read] in CPE is a grant on top of the fixed offer, not a whitelist.
    tools, deferred = cpe_offers[("route-review", "with")]
    assert {*tools, *deferred} - {"DeferredToolPlaceholder", MOCKED} == {
        "Agent",
        "Glob",
        "Grep",
        "Read",
        "Skill",
        "TaskStop",
        "ToolSearch",
    }


def test_an_operator_grant_offers_the_same_tools_in_both(pytester: pytest.Pytester, tmp_path: Path) -> None:
    plugin, aggregate, requests = run_cpe(
        tmp_path, ["--case", "route-review", "--ablation", "none", "--allow-tools", "Write"]
    )
    (case,) = aggregate["cases"]
    cpe = cpe_first_requests(requests, {case["name"]: case["promptMarkdown"].strip()})
    _, recs, run_dir = run_ponybench(pytester, plugin, ["route-review"], ["careful"], grants=["Write"])
    (rec,) = recs
    tools, deferred = ponybench_offer(run_dir, rec)
    cpe_tools, cpe_deferred = cpe[("route-review", "with")]
    assert (tools, deferred) == (cpe_tools, cpe_deferred) and MOCKED in deferred
    assert {"Write", "Edit"} <= set(tools) and "NotebookEdit" in deferred
