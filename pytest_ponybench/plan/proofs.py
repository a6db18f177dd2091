"""Activation proofs kept between runs: an arm whose check passed is not checked again while
nothing that decides the check has changed.

An arm's activation check is a session of the agent's CLI, about a second of CPU per arm and
agent, and its outcome follows from its inputs alone: the arm's content (its parts, hashed file
by file), the agent's binary, the harness's own code, the programs a hook can run (the folders
on PATH) and the user it runs as. `fingerprint` hashes them; a passed check is kept under its
fingerprint in pytest's cache (`.pytest_cache`, so `--cache-clear` forgets every proof, and `-p
no:cacheprovider` keeps none), and a later offline run or dry run with the same fingerprint says
the kept result instead of running the session again. A failed check is never kept (it runs
again, to say what is wrong now), and a run that would spend checks every arm afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from pytest_ponybench import __version__
from pytest_ponybench._util.paths import PACKAGE_ROOT
from pytest_ponybench.core.arms import Arm

__all__ = ["KEY", "KEPT", "Proofs", "fingerprint"]

KEY = "ponybench/activation"
KEPT = 64  # proofs kept: the newest, so the cache file stays small


def _stat(path: str | Path) -> list[Any]:
    try:
        st = os.stat(path)
    except OSError:
        return [str(path), None]
    return [str(path), st.st_size, st.st_mtime_ns, st.st_ino]


@cache
def _harness() -> str:
    """The harness's own code as it is on disk: every file of the package, by size, mtime and
    inode (an edit or a reinstall changes them), with its version."""
    h = hashlib.sha256(__version__.encode() + b"\0")
    for folder, dirs, files in os.walk(PACKAGE_ROOT):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            path = os.path.join(folder, name)
            h.update(json.dumps(_stat(path)[1:] + [os.path.relpath(path, PACKAGE_ROOT)]).encode())
    return h.hexdigest()


def fingerprint(arm: Arm, agent: str, binary: str) -> str:
    """What decides the arm's activation check through this agent's binary, hashed."""
    inputs = {
        "arm": arm.describe(),  # the parts' content hash, their paths and text
        "agent": agent,
        "binary": _stat(os.path.realpath(binary)),
        "harness": _harness(),
        "path": [_stat(d) for d in os.environ.get("PATH", "").split(os.pathsep) if d],
        "python": sys.version,
        "uid": os.geteuid(),
    }
    return hashlib.sha256(json.dumps(inputs, sort_keys=True, default=str).encode()).hexdigest()


class Proofs:
    """Passed activation checks by fingerprint: `read` gives what is kept (KEY's value), `write`
    keeps a new value (None: read only, as a dry run that writes nothing)."""

    def __init__(self, read: Callable[[], Any], write: Callable[[dict[str, Any]], None] | None) -> None:
        self._read, self._write = read, write

    def _all(self) -> dict[str, Any]:
        kept = self._read()
        return kept if isinstance(kept, dict) else {}  # a cache edited by hand is no proof

    def get(self, fp: str) -> dict[str, Any] | None:
        """The kept result of a passed check with this fingerprint, marked `reused` with the
        time it ran; None when there is none."""
        entry = self._all().get(fp)
        if not isinstance(entry, dict):
            return None
        result, at = entry.get("result"), entry.get("at")
        if not isinstance(result, dict) or result.get("ok") is not True or not isinstance(at, str):
            return None
        return {**result, "wall_s": 0.0, "reused": at}

    def put(self, results: list[tuple[str, dict[str, Any]]]) -> None:
        """Keep the passed ones among (fingerprint, result) pairs, dropping the oldest beyond KEPT."""
        passed = [(fp, res) for fp, res in results if res.get("ok") is True and "reused" not in res]
        if not passed or self._write is None:
            return
        kept = self._all()
        at = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        for fp, res in passed:
            kept.pop(fp, None)
            kept[fp] = {"at": at, "result": res}
        newest = list(kept.items())[-KEPT:]
        self._write(dict(newest))
