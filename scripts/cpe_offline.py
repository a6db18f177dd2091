"""Run Claude Code's own `claude plugin eval` against the offline model server, on loopback only.

Shared by `record_cpe_results.py` (the aggregate-result.json files the unit tests read),
`bench_vs_cpe.py` (a small run timed both ways) and the integration test that reads what the
installed CLI writes today. Nothing here needs an account: the CLI is pointed at the offline
server with `ANTHROPIC_BASE_URL` and a placeholder key, its HOME and TMPDIR are scratch folders
of ours, and `--no-publish` keeps the report local.

`isolated()` re-runs a script inside a fresh network namespace whose only interface is the
loopback (`unshare -n`, then `ip link set lo up`), so a run proves that no byte left the machine:
anything but 127.0.0.1 is unreachable there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "examples" / "careful-plugin"
DATA = ROOT / "tests" / "unit" / "data" / "cpe"
ISOLATED_ENV = "PONYBENCH_CPE_ISOLATED"
# What the CLI's own environment may keep from ours: nothing of a parent Claude Code session,
# no credential, no API setting.
_DROP_PREFIXES = ("CLAUDE", "ANTHROPIC", "AWS_", "GITHUB_", "GH_")


def lab_plugin(dest: Path, evals: Path, *, skill: bool = True, version: str = "0.1.0") -> Path:
    """A copy of examples/careful-plugin with `evals` as its eval suite (evals/ inside it, where
    `claude plugin eval` looks); without its skill when `skill` is False (a second version)."""
    shutil.copytree(PLUGIN, dest)
    if not skill:
        shutil.rmtree(dest / "skills")
    manifest = dest / ".claude-plugin" / "plugin.json"
    data = json.loads(manifest.read_text())
    data["version"] = version
    manifest.write_text(json.dumps(data, indent=2) + "\n")
    shutil.copytree(evals, dest / "evals")
    return dest


@dataclass
class CpeRun:
    returncode: int
    wall_s: float
    output: str
    aggregate: Path
    requests: list[dict[str, Any]]  # what the offline server was asked, in order (every session's)


def cpe_env(base_url: str, home: Path, tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_DROP_PREFIXES)}
    env.update(
        HOME=str(home),
        TMPDIR=str(tmp),
        ANTHROPIC_API_KEY="offline-key",
        ANTHROPIC_BASE_URL=base_url,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        IS_SANDBOX="1",
    )
    return env


def run_cpe(
    server: OfflineServer,
    plugin_dir: Path,
    out_dir: Path,
    args: Sequence[str] = (),
    scratch: Path | None = None,
    timeout_s: float = 900.0,
) -> CpeRun:
    """`claude plugin eval PLUGIN_DIR --no-publish --trust-plugin --output-dir OUT_DIR ARGS`
    against the server; every session of it is one cell of the server (one base URL). The
    CLI's HOME and TMPDIR (where it keeps failed runs' sandboxes) live in `scratch`, removed
    afterwards."""
    scratch = scratch or out_dir.parent / f"cpe-scratch-{uuid.uuid4().hex[:8]}"
    home, tmp, ws = scratch / "home", scratch / "tmp", scratch / "ws"
    for d in (home, tmp, ws):
        d.mkdir(parents=True, exist_ok=True)
    cell = f"cpe-{uuid.uuid4().hex[:12]}"
    # No files to write: the offline agents answer in chat (offline-idle) or call the plugin's
    # skill first (offline-coin) and then find nothing to change.
    server.register(cell, CellScript(ws.resolve(), {}, {}, None))
    argv = ["claude", "plugin", "eval", str(plugin_dir), "--no-publish", "--trust-plugin"]
    argv += ["--output-dir", str(out_dir), *args]
    start = time.monotonic()
    try:
        proc = subprocess.run(
            argv,
            env=cpe_env(server.cell_url(cell), home, tmp),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            cwd=plugin_dir,
        )
    finally:
        wall = time.monotonic() - start
        requests = server.requests(cell)
        server.unregister(cell)
        # The CLI closes the modes of sandboxes it keeps; open them again to remove them.
        subprocess.run(["chmod", "-R", "u+rwX", str(scratch)], check=False)
        shutil.rmtree(scratch, ignore_errors=True)
    return CpeRun(
        proc.returncode, wall, proc.stdout + proc.stderr, out_dir / "aggregate-result.json", requests
    )


def scrub(data: Any, replace: dict[str, str]) -> Any:
    """The aggregate with machine-specific paths replaced (every string, recursively)."""
    if isinstance(data, str):
        for old, new in replace.items():
            data = data.replace(old, new)
        return data
    if isinstance(data, list):
        return [scrub(v, replace) for v in data]
    if isinstance(data, dict):
        return {k: scrub(v, replace) for k, v in data.items()}
    return data


def isolated(argv: Sequence[str]) -> int | None:
    """Re-run `python argv...` in a network namespace with only the loopback up; the exit code,
    or None when that cannot be done here (no `unshare`/`ip`, or not permitted) or already done."""
    if os.environ.get(ISOLATED_ENV) == "1" or not (shutil.which("unshare") and shutil.which("ip")):
        return None
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True)
    if probe.returncode != 0:
        return None
    inner = " ".join(_quote(a) for a in [sys.executable, *argv])
    env = dict(os.environ, **{ISOLATED_ENV: "1"})
    return subprocess.run(
        ["unshare", "-n", "sh", "-c", f"ip link set lo up && exec {inner}"], env=env
    ).returncode


def _quote(arg: str) -> str:
    return "'" + arg.replace("'", "'\"'\"'") + "'"


def only_loopback() -> bool:
    """Whether this process sees no network interface but the loopback."""
    try:
        lines = Path("/proc/net/dev").read_text().splitlines()[2:]
    except OSError:
        return False
    return [line.split(":")[0].strip() for line in lines] == ["lo"]
