"""A broken plugin is caught on the five-minute path, through the real CLI, offline: a scratch
plugin repository whose SessionStart hook crashes (node, a script not there), set up with
`ponybench init` as the README says, is named in the offline run's pre-flight line, in every
cell's `arm_errors`, in the terminal's line per arm, by `ponybench compare --fail-on
arm_errors` (exit 1), in the report, and a paid run refuses it before any cell. A hook-only
plugin gets its trigger line; a baseline cell whose Skill call failed did not use the skill.

Every plugin is a scratch copy made for the test.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO, closed_port, records, run_dirs, write

pytestmark = pytest.mark.needs_claude

CRASH_LINE = re.compile(
    r"hook SessionStart exited 1: node:internal/modules/cjs/loader:\d+ … Error: Cannot find module "
    r"'[^']*/hooks/session-start\.js' … Node\.js v[\d.]+"
)


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True)


def run(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=1500, env=env
    )


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A plugin repository with a crashing SessionStart hook, benchmarked as the README's five
    minutes say: `ponybench init` in it, committed. Returns (its root, its arm's name)."""
    root = tmp_path_factory.mktemp("plugins") / "crashing-plugin"
    shutil.copytree(REPO / "tests" / "plugins" / "crashing-hook", root)
    git(root, "init", "-q")
    done = run(root, "-m", "pytest_ponybench.cli", "init")
    assert done.returncode == 0, done.stdout + done.stderr
    arms = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["ponybench"]["arms"]
    (arm,) = [name for name, spec in arms.items() if spec == {"plugin": "."}]
    git(root, "add", "-A")
    git(root, "commit", "-qm", "the plugin and its benchmark")
    return root, arm


def test_a_crashing_hook_is_caught_on_the_five_minute_path(repo: tuple[Path, str]) -> None:
    root, arm = repo
    done = run(
        root,
        *("-m", "pytest", "benchmarks", "-n", "2", "-p", "no:cacheprovider"),
        *("--models", "offline-reference,offline-flawed"),
    )
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    # The pre-flight's activation check ran by itself (an offline run) and said it, one line per arm.
    line = next(ln for ln in out.splitlines() if ln.startswith(f"ponybench: pre-flight: arm {arm}: "))
    assert CRASH_LINE.search(line) and line.endswith(" (a paid run refuses this arm)"), line
    assert "never reached the model" not in out
    (run_dir,) = run_dirs(root)
    recs = records(run_dir)
    assert len(recs) == 16
    for rec in recs:
        if rec["arm"] == "baseline":
            assert rec["arm_errors"] == [] and rec["hooks_fired"] is None, rec["cell_id"]
            continue
        (error,) = rec["arm_errors"]
        assert (error["kind"], error["name"], error["exit_code"]) == ("hook", "SessionStart", 1), error
        assert "Error: Cannot find module '" in error["message"], error
        assert rec["hooks_fired"] == [], rec["cell_id"]
    # The terminal: one line per arm and problem.
    (health,) = [ln for ln in out.splitlines() if ln.startswith(f"arm {arm}: hook SessionStart failed")]
    assert health.startswith(f"arm {arm}: hook SessionStart failed in 8 of 8 cells (exited 1): "), health
    assert "Error: Cannot find module '" in health
    run_json = json.loads((run_dir / "run.json").read_text())
    assert run_json["preflight"]["scope"] == "activation" and run_json["preflight"]["problems"]
    (checked,) = run_json["preflight"]["arms"]  # the baseline loads nothing: no session of its own
    assert checked["arm"] == arm and 0 < checked["wall_s"] < 60, checked
    # A resume checks the arms again (said in its header) and keeps the run's own run.json.
    again = run(root, "-m", "pytest", "benchmarks", "-p", "no:cacheprovider", "--resume", str(run_dir))
    assert f"ponybench: pre-flight: arm {arm}: " in again.stdout, again.stdout[-3000:] + again.stderr[-3000:]
    assert json.loads((run_dir / "run.json").read_text())["preflight"] == run_json["preflight"]

    # The gate: --fail-on arm_errors fails the run.
    gate = run(root, "-m", "pytest_ponybench.cli", "compare", str(run_dir), "--fail-on", "arm_errors")
    assert gate.returncode == 1, gate.stdout + gate.stderr
    assert f"FAIL arm_errors: arm {arm}: hook SessionStart failed in 8 of 8 cells (exited 1)" in gate.stdout
    assert "gate failed: arm_errors" in gate.stdout
    summary = run(root, "-m", "pytest_ponybench.cli", "summary", str(run_dir))
    assert health in summary.stdout.splitlines(), summary.stdout[-2000:]

    # The report: the arm card and the arms table say it, and so does each cell's view.
    page = (run_dir / "report.html").read_text()
    assert f"{arm}: hook SessionStart failed in 8 of 8 cells (exited 1)" in page
    assert "what of it failed in its cells" in page
    cells = "".join(p.read_text() for p in (run_dir / "report").glob("p*.js"))
    assert cells.count('"arm_errors":["hook SessionStart exited 1: node:internal') == 8


def test_a_paid_run_refuses_the_crashing_arm_before_any_cell(repo: tuple[Path, str], tmp_path: Path) -> None:
    root, arm = repo
    out_dir = tmp_path / "paid-runs"
    env = {
        **os.environ,
        "ANTHROPIC_API_KEY": "sk-ant-never-used",
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{closed_port()}",
    }
    bench = ("-m", "pytest", "benchmarks", "-p", "no:cacheprovider")
    args = (*bench, "--models", "sonnet", "--ponybench-out", str(out_dir))
    # The dry run says it first: the activation check is offline and cheap.
    dry = run(root, *args, "--dry-run", env=env)
    assert dry.returncode == 0, dry.stdout[-3000:] + dry.stderr[-3000:]
    (line,) = [ln for ln in dry.stdout.splitlines() if ln.startswith(f"pre-flight: arm {arm}: ")]
    assert CRASH_LINE.search(line) and line.endswith("(a paid run refuses this arm)"), line
    skipped = run(root, *args, "--dry-run", "--skip-preflight", env=env)
    assert "pre-flight: none (--skip-preflight)" in skipped.stdout and f"arm {arm}:" not in skipped.stdout

    paid = run(root, *args, env=env)
    err = paid.stderr
    assert paid.returncode == 4, paid.stdout[-3000:] + err[-3000:]  # pytest's usage error
    assert "ponybench pre-flight failed; no cell was run and nothing was spent:" in err, err[-3000:]
    (refused,) = [ln for ln in err.splitlines() if ln.startswith(f"  - arm {arm!r}: hook SessionStart")]
    assert CRASH_LINE.search(refused), refused
    assert "test_cell" not in paid.stdout
    assert not list(out_dir.glob("*/results.jsonl"))


# Context on every prompt; a decision on every write (JSON as the hook protocol wants it).
ALLOW = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
HOOK_ONLY = {
    "hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo 'GUARD-CONTEXT-5107'"}]}],
        "PreToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [{"type": "command", "command": f"echo '{json.dumps(ALLOW)}'"}],
            }
        ],
    }
}


def test_a_hook_only_plugin_fires_and_a_failed_skill_call_is_not_a_use(
    pytester: pytest.Pytester, bench_project: Any, tmp_path: Path
) -> None:
    """graded_skill_parse_port expects a plugin to fire; offline-reference makes its reference's
    Skill call. The careful plugin has the skill: used. A hook-only plugin has none: the call
    fails (`Unknown skill`), yet its hooks gave context and a decision: fired. The baseline's
    Skill call failed too: the skill did not fire there, and its grader says why."""
    root = bench_project(tasks=["graded_skill_parse_port"])
    guard = tmp_path / "guard"
    write(guard / ".claude-plugin" / "plugin.json", json.dumps({"name": "guard", "version": "1.0.0"}))
    write(guard / "hooks" / "hooks.json", json.dumps(HOOK_ONLY))
    shutil.copytree(REPO / "examples" / "careful-plugin", root / "careful")
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-p",
        "no:cacheprovider",
        "--models",
        "offline-reference",
        "--arm",
        f"guard=plugin:{guard}",
        "--arm",
        "careful=plugin:careful",
    )
    recs = {r["arm"]: r for r in records(run_dirs(root)[0])}
    assert set(recs) == {"baseline", "guard", "careful"}, result.stdout.str()[-3000:]
    graded = {arm: {g["name"]: g for g in rec["graders"]} for arm, rec in recs.items()}
    fired = {arm: g["review_skill_fired"] for arm, g in graded.items()}
    assert fired["careful"]["passed"] is True, fired["careful"]
    for arm in ("baseline", "guard"):
        assert fired[arm]["passed"] is False, fired[arm]
        assert "0 successful call(s) of Skill" in fired[arm]["explanation"], fired[arm]
        assert "1 failed call(s) not counted: #0 Skill careful:careful-review (" in fired[arm]["explanation"]
        assert "Unknown skill" in fired[arm]["explanation"], fired[arm]
        assert recs[arm]["skills_used"] == [], recs[arm]
        (call,) = [c for c in recs[arm]["tool_calls"] if c["tool"] == "Skill"]
        assert call["is_error"] is True
    assert recs["careful"]["skills_used"] == ["careful:careful-review"]
    assert recs["guard"]["hooks_fired"] == ["UserPromptSubmit", "PreToolUse"]
    assert recs["guard"]["arm_errors"] == [] and recs["careful"]["arm_errors"] == []
    assert recs["baseline"]["hooks_fired"] is None
    result.stdout.fnmatch_lines(
        [
            "trigger accuracy of careful (offline-reference): fired where expected 1/1 (100%*",
            "trigger accuracy of guard (offline-reference): fired where expected 1/1 (100%*",
        ]
    )
    out = result.stdout.str().splitlines()
    assert "ponybench: pre-flight: arm guard: ok (hooks PreToolUse, UserPromptSubmit)" in out
    # The CLI lists a plugin's skill among its slash commands too.
    assert (
        "ponybench: pre-flight: arm careful: ok (hooks SessionStart; skills careful:careful-review; "
        "commands careful:careful-review)"
    ) in out
    assert "ponybench: pre-flight: arm baseline: ok (nothing to load)" in out
