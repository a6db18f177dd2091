import os
import subprocess
from pathlib import Path

import pytest

# A stand-in for tar on the PATH: it records its arguments (NUL-separated, one record per run)
# and does nothing else, so the checks see exactly what the shell handed it.
FAKE_TAR = """#!/bin/sh
{ printf 'CALL\\0'; for a in "$@"; do printf '%s\\0' "$a"; done; } >> "$TAR_LOG"
"""


class Shell:
    def __init__(self, base: Path) -> None:
        self.bin = base / "bin"
        self.bin.mkdir()
        tar = self.bin / "tar"
        tar.write_text(FAKE_TAR)
        tar.chmod(0o755)
        self.log = base / "tar.log"
        self.cwd = base / "work"
        self.cwd.mkdir()
        # files a glob or a tilde the shell expands would pick up
        for name in ("a.tmp", "b.tmp", "ab", "x1", "--exclude=z.tmp", "--exclude=ab"):
            (self.cwd / name).write_text("")

    def run(self, command: str) -> list[list[str]]:
        """Run command with sh -c in the work folder; the argument lists tar got."""
        if self.log.exists():
            self.log.unlink()
        env = {"PATH": f"{self.bin}:/usr/bin:/bin", "TAR_LOG": str(self.log),
               "HOME": str(self.cwd), "LC_ALL": "C.UTF-8"}
        subprocess.run(["sh", "-c", command], cwd=self.cwd, env=env, timeout=10,
                       stdin=subprocess.DEVNULL, capture_output=True)
        if not self.log.exists():
            return []
        fields = self.log.read_bytes().split(b"\0")[:-1]
        calls: list[list[str]] = []
        for f in fields:
            if f == b"CALL":
                calls.append([])
            else:
                calls[-1].append(os.fsdecode(f))
        return calls


@pytest.fixture
def shell(tmp_path):
    return Shell(tmp_path)
