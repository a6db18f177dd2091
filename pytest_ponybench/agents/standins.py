"""A task's MCP mocks as the stdio servers its sessions start, inside the cell's confinement.

One server per mocked server (`mocks/<server>/`), each `python -I -S mock_server.py <server>.json`
under the bridge's python (the harness's base interpreter: the standard library alone), from a
copy made once per process and task in the process's private scratch: the probe
`_probe/mock_server.py`, a copy of `_util/mockanswer.py` beside it, each server's spec
(`core.mocks.Mocks.spec`) and the task's `mocks/` folder. The copy is bound read-only into a
confined session, as an `mcp:` arm's folder is; the task folder itself is never in its view.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench._util import mockanswer
from pytest_ponybench._util.paths import PROBES
from pytest_ponybench.core.mocks import MOCKS_DIR, Mocks
from pytest_ponybench.isolation import confine
from pytest_ponybench.isolation.scratch import session_dir

__all__ = ["SERVER", "StandIns", "stand_ins"]

SERVER = "mock_server.py"

# (pid, task id, the mocks' content) -> its copy: made once per process (a worker its own).
_COPIES: dict[tuple[int, str, str], Path] = {}


@dataclass(frozen=True)
class StandIns:
    """The `mcpServers` entries that start a task's stand-ins, and what a confined session
    must read to run them."""

    servers: dict[str, dict[str, Any]] = field(default_factory=dict)
    readable: tuple[Path, ...] = ()


def _copy(mocks: Mocks, task_id: str) -> Path:
    key = (os.getpid(), task_id, json.dumps(mocks.describe(), sort_keys=True))
    found = _COPIES.get(key)
    if found is not None and found.is_dir():
        return found
    dest = session_dir() / "mocks" / f"{task_id}-{uuid.uuid4().hex[:8]}"
    (dest / MOCKS_DIR).mkdir(parents=True)
    for rel, data in mocks.files.items():
        target = dest / MOCKS_DIR / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    shutil.copyfile(PROBES / SERVER, dest / SERVER)
    shutil.copyfile(Path(mockanswer.__file__), dest / "mockanswer.py")
    for server in mocks.servers:
        (dest / f"{server}.json").write_text(json.dumps(mocks.spec(server), sort_keys=True), encoding="utf-8")
    for folder, _dirs, files in os.walk(dest):
        for name in files:
            os.chmod(os.path.join(folder, name), 0o444)
    _COPIES[key] = dest
    return dest


def stand_ins(mocks: Mocks | None, task_id: str) -> StandIns:
    """The stand-ins of a task's mocks (none without mocks)."""
    if mocks is None or not mocks.responders:
        return StandIns()
    copy = _copy(mocks, task_id)
    python = confine.bridge_python()
    servers = {
        server: {"command": python, "args": ["-I", "-S", str(copy / SERVER), str(copy / f"{server}.json")]}
        for server in mocks.servers
    }
    return StandIns(servers, (copy, *confine.install_readable(python)))
