"""Arms reach the model: a plugin's SessionStart hook output and an appended prompt, proven by
the offline server's request log; broken arms stop the session before any cell runs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import HOOK_MARKER, make_plugin, records, run_dirs

pytestmark = pytest.mark.needs_claude

PROMPT_MARKER = "PONYBENCH-PROMPT-MARKER-9023"


def test_plugin_and_prompt_arms_reach_the_model_and_nothing_else_does(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(
        tasks=["sql_lookup", "merge_intervals"],
        arms=f'baseline = {{}}\ntold = {{ prompt = "{PROMPT_MARKER}" }}\n',
    )
    make_plugin(root)
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference",
        "--arm",
        "marked=plugin:plugins/marker-plugin",
    )
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(
        ["*verdicts: each arm vs baseline*", "marked vs baseline*", "*pass*undecided*"]
    )
    run_dir = run_dirs(root)[0]
    seen: dict[str, tuple[bool, bool]] = {}
    for cell in (run_dir / "cells").iterdir():
        log = (cell / "offline_requests.jsonl").read_text()
        assert log.strip(), f"{cell.name}: no request logged"
        seen[cell.name] = (HOOK_MARKER in log, PROMPT_MARKER in log)
    for name, (hook, prompt) in seen.items():
        arm = name.split("-")[1]
        assert hook == (arm == "marked"), f"{name}: hook marker in request log = {hook}"
        assert prompt == (arm == "told"), f"{name}: prompt marker in request log = {prompt}"
    recs = {r["cell_id"]: r for r in records(run_dir)}
    assert "marker-plugin" in recs["sql_lookup-marked-offline-reference-r0"]["plugins"]
    assert "marker-plugin" not in recs["sql_lookup-baseline-offline-reference-r0"]["plugins"]
    hashes = {r["arm"]: r["arm_hash"] for r in recs.values()}
    assert len(set(hashes.values())) == 3, hashes
    run = json.loads((run_dir / "run.json").read_text())
    assert {a["name"]: a["hash"] for a in run["arms"]} == hashes


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("broken=plugin:plugins/nope", "arm 'broken' (--arm): plugin dir * does not exist"),
        ("broken=plugin:plugins/bad-json", "arm 'broken' (--arm): *plugin.json is not valid JSON*"),
        ("broken=plugin:plugins/no-name", "arm 'broken' (--arm): *plugin.json has no \"name\""),
        ("broken=settings:{not json", "arm 'broken' (--arm): settings are not valid JSON: *"),
        ("broken=settings:nofile.json", "arm 'broken' (--arm): settings * neither a JSON object*"),
        ("broken=prompt-file:missing.md", "arm 'broken' (--arm): prompt file * does not exist"),
        ("broken=magic:x", "arm 'broken' (--arm): unknown kind 'magic'*"),
        ("justtext", "*--arm 'justtext': expected NAME=KIND:VALUE with KIND one of plugin, prompt*"),
    ],
)
def test_broken_arm_stops_before_any_cell(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], spec: str, message: str
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    make_plugin(root, "bad-json", manifest="{nope")
    make_plugin(root, "no-name", manifest='{"version": "1"}')
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--models", "offline-reference", "--arm", spec
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])
    assert not (root / "runs").exists() or not list((root / "runs").glob("*/results.jsonl"))


def test_arm_table_errors_name_the_key(pytester: pytest.Pytester, bench_project: Callable[..., Path]) -> None:
    bench_project(tasks=["sql_lookup"], arms='odd = { plugins = "x", prompt = "y" }\n')
    result = pytester.runpytest_subprocess("benchmarks", "--models", "offline-reference")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: arm 'odd' (*pyproject.toml ?tool.ponybench.arms?): unknown key(s) plugins (known: plugin,*"]
    )


def test_unknown_arm_name_is_a_usage_error(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    bench_project(tasks=["sql_lookup"])
    result = pytester.runpytest_subprocess("benchmarks", "--arms", "baseline,ghost")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --arms: unknown arm(s) ghost (known: baseline)"])
