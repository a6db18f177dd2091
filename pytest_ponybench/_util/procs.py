"""The machine's processes, read from /proc: who is alive, in which group, below which parent.

Processes come and go while /proc is read: one that vanishes between the listing and the read
is simply not there, never an error.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PROC", "Proc", "alive", "cmdline", "descendants", "group_members", "processes", "read"]

PROC = Path("/proc")


@dataclass(frozen=True)
class Proc:
    pid: int
    state: str  # "R", "S", "Z" (zombie), ...
    ppid: int
    pgid: int

    @property
    def zombie(self) -> bool:
        return self.state == "Z"

    def cmdline(self) -> list[str]:
        return cmdline(self.pid)

    def environ(self) -> bytes:
        """The raw environment block (NUL-separated); empty when it cannot be read."""
        try:
            return (PROC / str(self.pid) / "environ").read_bytes()
        except OSError:
            return b""


def alive(pid: int) -> bool:
    """Whether a process with this pid exists (one we may not signal exists too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def cmdline(pid: int) -> list[str]:
    """argv; empty for a zombie, a kernel thread or a process that is gone."""
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return []
    return [a.decode(errors="replace") for a in raw.split(b"\0") if a]


def read(pid: int) -> Proc | None:
    """One process, or None when it is gone."""
    try:
        stat = (PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: the fields start after the last ')'.
    fields = stat[stat.rfind(b")") + 2 :].split()
    return Proc(pid, fields[0].decode(), int(fields[1]), int(fields[2]))


def processes() -> Iterator[Proc]:
    """Every process visible in /proc, zombies included."""
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (proc := read(int(entry.name))) is not None:
            yield proc


def group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes of a process group."""
    return [p.pid for p in processes() if p.pgid == pgid and not p.zombie]


def descendants(root: int, procs: Iterable[Proc]) -> set[int]:
    """Every process below root in the parent tree (root itself excluded)."""
    children: dict[int, list[int]] = {}
    for p in procs:
        children.setdefault(p.ppid, []).append(p.pid)
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found
