"""Helpers the tests share: run dirs and records of a benchmark project, live processes, plugins.

A module of its own (not conftest) so tests import it like any other code.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench._util import procs, textfiles
from pytest_ponybench.agents import claude_stream
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.claude import ClaudeCode
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.policy import AgentPolicy
from pytest_ponybench.core.records import FIELDS
from pytest_ponybench.core.transcript import Transcript
from pytest_ponybench.isolation import confine

REPO = Path(__file__).resolve().parents[1]
CLAUDE = shutil.which("claude")
CLAUDE_INSTALL = "npm install -g @anthropic-ai/claude-code@2.1.332"
OPENCODE = shutil.which("opencode")
COPILOT = shutil.which("copilot")
CODEX = shutil.which("codex")
# marker -> (the CLI, where it is, how CI installs it)
CLIS: dict[str, tuple[str, str | None, str]] = {
    "needs_claude": ("claude", CLAUDE, CLAUDE_INSTALL),
    "needs_opencode": ("opencode", OPENCODE, "npm install -g opencode-ai@1.18.33"),
    "needs_copilot": ("copilot", COPILOT, "npm install -g @github/copilot@1.0.102"),
    "needs_codex": ("codex", CODEX, "npm install -g @openai/codex@0.171.0"),
}
# .ci/run sets this: a CI run without the CLI must fail, never pass by skipping.
REQUIRE_CLAUDE_ENV = "PONYBENCH_REQUIRE_CLAUDE"


def transcript_of(lines: Iterable[dict[str, Any] | str]) -> Transcript:
    """claude's transcript of stream events (dicts) or raw stream lines, as its adapter parses them."""
    return claude_stream.parse_lines(json.dumps(e) if isinstance(e, dict) else e for e in lines)


GATEWAY_TOKEN = "ponybench-gw-test-token"  # what a seat's token looks like to a session


def claude_command(
    prompt: str,
    model: str,
    arm: Arm,
    max_turns: int,
    policy: AgentPolicy | None = None,
    binary: str = "claude",
    max_budget_usd: float | None = None,
) -> list[str]:
    """claude's command for one agent session, as a cell builds it."""
    spec = SessionSpec(
        prompt=prompt,
        model=model,
        home=Path("/nonexistent"),
        max_turns=max_turns,
        max_budget_usd=max_budget_usd,
    )
    return ClaudeCode().command(binary, spec, arm, policy)


def claude_env(
    home: Path,
    *,
    base_url: str | None = None,
    offline: bool = True,
    api_timeout_ms: int = 1000,
    base: Mapping[str, str] | None = None,
    memory: bool = False,
    task_env: Mapping[str, str] | None = None,
    api_key: str | None = GATEWAY_TOKEN,
) -> dict[str, str]:
    """claude's environment for one session, as a cell builds it (the gateway's token given)."""
    spec = SessionSpec(
        prompt="",
        model="",
        home=home,
        base_url=base_url,
        api_key=api_key,
        offline=offline,
        api_timeout_ms=api_timeout_ms,
        memory=memory,
        task_env=dict(task_env or {}),
    )
    return ClaudeCode().environment(spec, base)


def run_dirs(root: Path) -> list[Path]:
    return sorted(p for p in (root / "runs").iterdir() if p.is_dir())


def records(run_dir: Path) -> list[dict[str, Any]]:
    """A real run's records, each key checked against the documented schema: a key the harness
    writes without declaring it in `records.FIELDS` (and so in docs/results.md) fails every test."""
    lines = textfiles.read_jsonl(run_dir / "results.jsonl")
    assert lines.bad == 0, f"{run_dir}/results.jsonl has {lines.bad} torn or garbled line(s)"
    for rec in lines.objects:
        undeclared = sorted(set(rec) - set(FIELDS))
        assert not undeclared, f"{run_dir}: record {rec.get('cell_id')} has undeclared keys {undeclared}"
    return lines.objects


def tagged_processes(tag: str) -> list[str]:
    """Command lines of live processes (zombies excluded) whose environment holds tag.

    Tests set a unique tag in the environment of the pytest they start; every claude, unshare
    and scorer process below it inherits it, so parallel tests never count each other's.
    """
    needle = tag.encode()
    return [
        " ".join(p.cmdline())
        for p in procs.processes()
        if p.pid != os.getpid() and not p.zombie and needle in p.environ()
    ]


HOOK_MARKER = "PONYBENCH-HOOK-MARKER-4417"


def make_plugin(root: Path, name: str = "marker-plugin", manifest: str | None = None) -> Path:
    plugin = root / "plugins" / name
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / "hooks").mkdir()
    (plugin / ".claude-plugin" / "plugin.json").write_text(
        manifest if manifest is not None else json.dumps({"name": name, "version": "0.0.1"})
    )
    hook = {"type": "command", "command": f"echo {HOOK_MARKER}"}
    (plugin / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [hook]}]}}))
    return plugin


@contextmanager
def small_tmpfs(path: Path, size: str = "1m") -> Iterator[Path]:
    """A tmpfs of the given size mounted at path: a real full disk to write into. Skips the
    test where this machine does not let us mount one (not root, no CAP_SYS_ADMIN)."""
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def one_task_project(root: Path, task: str = "merge_intervals", claude_line: str = "") -> Path:
    """A benchmark project with one shipped task and a stand-in `./claude` script (for tests
    that stop before any cell: the plan is resolved, the script is at most asked its version)."""
    (root / "benchmarks" / "tasks").mkdir(parents=True)
    shutil.copy(REPO / "benchmarks" / "test_cells.py", root / "benchmarks" / "test_cells.py")
    shutil.copytree(REPO / "benchmarks" / "tasks" / task, root / "benchmarks" / "tasks" / task)
    (root / "fixtures").mkdir()
    (root / "pyproject.toml").write_text("[tool.ponybench]\n[tool.ponybench.arms]\nbaseline = {}\n")
    (root / "claude").write_text(f"#!/bin/sh\n{claude_line}\n")
    (root / "claude").chmod(0o755)
    return root


ARM_FILES = REPO / "tests" / "arms"  # a CLAUDE.md, skills, agents, an output style
NOTES_MCP = REPO / "examples" / "notes-mcp"


def arm_project(root: Path) -> Path:
    """A project root with the test arms (arms/), the example MCP server (mcp/notes/) and a
    plugin (plugins/json-context/)."""
    shutil.copytree(ARM_FILES, root / "arms")
    shutil.copytree(NOTES_MCP, root / "mcp" / "notes")
    shutil.copytree(REPO / "tests" / "plugins" / "json-context", root / "plugins" / "json-context")
    return root


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then closed): a live API that is never reached."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def confined_or_skip() -> None:
    state = confine.status()
    if not state.available:
        pytest.skip(f"confinement is not available here: {state.reason}")


NOBODY = 65534  # the normal user the seal tests drop to (the suite runs as root in CI)


def _traversable(path: str) -> bool:
    """Whether every folder above path lets others in by its mode bits (inside the confinement
    they are enforced, whatever the host's file system lets through)."""
    return all(os.stat(p).st_mode & 0o001 for p in Path(os.path.realpath(path)).parents)


def _as_user(uid: int) -> list[str]:
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]


def python_for(uid: int) -> str | None:
    """A python 3.11+ that uid can run (this venv may live in a folder only root can open)."""
    for candidate in (sys.executable, "/usr/bin/python3"):
        if not os.path.exists(candidate) or not _traversable(candidate):
            continue
        check = [*_as_user(uid), candidate, "-c", "import sys; assert sys.version_info >= (3, 11)"]
        if subprocess.run(check, capture_output=True, timeout=30).returncode == 0:
            return candidate
    return None


def nobody_python() -> str:
    """The python uid 65534 runs the harness with; skips where the test cannot drop to it."""
    if os.geteuid() != 0:
        pytest.skip("the suite already runs as a normal user here")
    if shutil.which("setpriv") is None or shutil.which("bwrap") is None:
        pytest.skip("setpriv or bwrap is missing")
    python = python_for(NOBODY)
    if python is None:
        pytest.skip("no python 3.11+ that a normal user can run")
    return python


def as_nobody(
    python: str, code: str, *args: str, home: Path, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run code as uid 65534 with this checkout on its path, in home; its last line is JSON."""
    done = subprocess.run(
        [*_as_user(NOBODY), python, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "HOME": str(home), "PYTHONPATH": str(REPO), **(env or {})},
        cwd=home,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    assert out["uid"] == NOBODY and out["available"], out
    return out


def doc_example(page: Path, command: str) -> list[str]:
    """The lines a docs page shows as `$ command`'s output in a console block, but its `...`."""
    text = page.read_text()
    block = text[text.index(f"$ {command}\n") + len(command) + 3 :].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and line.strip() != "..."]


# --- a benchmark project run with hostile arms (the seal's integration tests) ---------------


def require_confinement() -> None:
    state = confine.status()
    if not state.available:
        pytest.skip(f"confinement is not available here: {state.reason}")


def hook_plugin(root: Path, name: str, script: str, consts: dict[str, str]) -> Path:
    plugin = root / "plugins" / name
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": name, "version": "0.0.1"}))
    header = "".join(f"{k} = {v!r}\n" for k, v in consts.items())
    (plugin / "hook.py").write_text(header + script)
    hook = {"type": "command", "command": "python3 ${CLAUDE_PLUGIN_ROOT}/hook.py", "timeout": 300}
    (plugin / "hooks").mkdir()
    (plugin / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [hook]}]}}))
    return plugin


def run_bench(root: Path, arms: list[str], *extra: str, env: dict[str, str] | None = None) -> Path:
    args = [sys.executable, "-m", "pytest", "benchmarks", "-n", "0", "-p", "no:cacheprovider"]
    args += ["--models", "offline-reference", "--cell-timeout", "300", *extra]
    for arm in arms:
        args += ["--arm", arm]
    done = subprocess.run(
        args, cwd=root, capture_output=True, text=True, timeout=1200, env={**os.environ, **(env or {})}
    )
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    return run_dirs(root)[-1]


def arm_records(run: Path, arm: str) -> list[dict[str, Any]]:
    return sorted((r for r in records(run) if r["arm"] == arm), key=lambda r: r["run"])
