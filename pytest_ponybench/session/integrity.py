"""Did a cell change the harness? A baseline of what the agent must not touch, taken when the
cell starts and compared when it ends.

Trees (the task folders, the fixtures, the plugin package with its probe) are compared by each
entry's lstat: type and mode, size, inode, mtime and ctime. A process can set a file's mtime
back (os.utime) but not its ctime, which the kernel moves on every write, chmod, rename or
link, so stat alone catches a rewrite however careful; reading the stats costs far less than
hashing the contents. Append-only files (the run's results.jsonl) may grow while a cell runs,
since other workers append their records; the bytes present at the start must stay the same,
so their prefix is compared.

Bytecode caches are the one exception in a tree: Python writes a new file into __pycache__ the
first time the harness imports a module lazily, during any cell. Files in __pycache__ that
existed at the start must stay as they were; new ones are not reported, except in a strict tree
(the scorer's packages in site-packages: the scorer never writes bytecode, so a new one there
was planted). A listing watches only some names in a folder (the .pth files of site-packages,
which python runs at start), without walking the rest.

A worker runs its cells one after another, so the state its check saw when a cell ended is the
baseline of its next cell (`Watch.check`): one walk per cell instead of two, and the watch has
no gap between cells (a change made between them, by anyone, is reported by the next check).
Append-only files are read afresh when each cell starts, so the record just appended is covered.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pytest_ponybench._util.paths import PACKAGE_ROOT

__all__ = [
    "Baseline",
    "KEEP_BYTES",
    "MESSAGE",
    "PACKAGE",
    "PYCACHE",
    "Signature",
    "Watch",
    "harness_paths",
    "message",
]

PACKAGE = PACKAGE_ROOT
PYCACHE = "__pycache__"
KEEP_BYTES = 32 << 20  # an append-only file up to this size is kept, not hashed
MESSAGE = "the agent changed the harness"

# (file type and mode, size, inode, mtime_ns, ctime_ns); None for a path that does not exist.
Signature = tuple[int, int, int, int, int] | None


def _signature(path: str) -> Signature:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(st.st_mode):
        # A directory's times move whenever an entry is added, removed or renamed (a new
        # bytecode file included); the entries themselves are compared instead.
        return (st.st_mode, 0, st.st_ino, 0, 0)
    return (st.st_mode, st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)


def _scan(root: str, into: dict[str, Signature]) -> None:
    """The signature of root and of every path below it, without following symlinks: one
    lstat per entry (the directory entry's own), no generator per folder."""
    into[root] = _signature(root)
    folders = [root]
    while folders:
        try:
            entries = list(os.scandir(folders.pop()))
        except (NotADirectoryError, FileNotFoundError):
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except FileNotFoundError:  # gone since the listing: absent, as a later lstat finds it
                continue
            if stat.S_ISDIR(st.st_mode):
                into[entry.path] = (st.st_mode, 0, st.st_ino, 0, 0)
                folders.append(entry.path)
            else:
                into[entry.path] = (st.st_mode, st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)


def _in_pycache(path: str) -> bool:
    """A __pycache__ folder or anything in one."""
    return f"{os.sep}{PYCACHE}{os.sep}" in path or path.endswith(f"{os.sep}{PYCACHE}")


def _prefix(path: str, size: int) -> bytes | None:
    """The first size bytes themselves, or their sha256 when there are more than KEEP_BYTES
    (comparing kept bytes is many times faster than hashing them twice per cell); None when the
    file is gone or shorter than that."""
    digest = hashlib.sha256() if size > KEEP_BYTES else None
    kept: list[bytes] = []
    left = size
    try:
        with open(path, "rb") as fh:
            while left > 0:
                chunk = fh.read(min(left, 1 << 20))
                if not chunk:
                    return None
                if digest is not None:
                    digest.update(chunk)
                else:
                    kept.append(chunk)
                left -= len(chunk)
    except FileNotFoundError:
        return None
    return digest.digest() if digest is not None else b"".join(kept)


@dataclass(frozen=True)
class Baseline:
    """What the watched paths looked like when it was taken; `changed()` says what differs now."""

    trees: dict[str, Signature]
    appended: dict[str, tuple[int, bytes | None]]  # path -> (size then, those bytes or their digest)
    strict: tuple[str, ...] = ()
    listed: dict[str, dict[str, Signature]] = field(default_factory=dict)

    @classmethod
    def take(
        cls,
        paths: Iterable[Path],
        *,
        append_only: Iterable[Path] = (),
        strict: Iterable[Path] = (),
        listings: Iterable[Path] = (),
    ) -> Baseline:
        """Record every file and folder below paths and strict, the current content of
        append_only files, and the .pth and customize files of the listings' folders. A path
        that does not exist is recorded as missing: its appearance is a change."""
        trees: dict[str, Signature] = {}
        strict_roots = tuple(str(Path(p).absolute()) for p in strict)
        for root in [*paths, *strict]:
            _scan(str(Path(root).absolute()), trees)
        return cls(trees, _appended(append_only), strict_roots, _listings(listings))

    def changed(self) -> list[str]:
        """Paths added, removed or modified since the baseline, sorted; [] when nothing is."""
        return self.compare()[0]

    def compare(self) -> tuple[list[str], Baseline]:
        """(what changed since the baseline, sorted; the baseline of the paths as they are now,
        append-only files aside): one walk gives both."""
        found: set[str] = set()
        roots = [p for p in self.trees if os.path.dirname(p) not in self.trees]
        now: dict[str, Signature] = {}
        for root in roots:
            _scan(root, now)
        for path, sig in now.items():
            if path not in self.trees:
                if not _in_pycache(path) or path.startswith(self.strict):
                    found.add(path)
            elif sig != self.trees[path]:
                found.add(path)
        found.update(p for p, sig in self.trees.items() if sig is not None and p not in now)
        for path, (size, before) in self.appended.items():
            if before is None:  # absent at the start: anything may appear
                continue
            if _prefix(path, size) != before:
                found.add(path)
        listed = {folder: _listing(folder) for folder in self.listed}
        for folder, names in self.listed.items():
            now_listed = listed[folder]
            found.update(
                os.path.join(folder, n)
                for n in set(names) | set(now_listed)
                if names.get(n) != now_listed.get(n)
            )
        return sorted(found), Baseline(now, {}, self.strict, listed)


def _appended(append_only: Iterable[Path]) -> dict[str, tuple[int, bytes | None]]:
    """Each append-only file's size now and those bytes (or their digest); (0, None) if absent."""
    appended: dict[str, tuple[int, bytes | None]] = {}
    for file in append_only:
        name = str(Path(file).absolute())
        try:
            size = os.stat(name).st_size
        except FileNotFoundError:
            appended[name] = (0, None)
            continue
        appended[name] = (size, _prefix(name, size))
    return appended


def _listings(listings: Iterable[Path]) -> dict[str, dict[str, Signature]]:
    return {str(Path(f).absolute()): _listing(str(Path(f).absolute())) for f in listings}


@dataclass(frozen=True)
class Watch:
    """What to take a baseline of around every cell: trees, strict trees and listings. The
    state the last check saw is kept (`seen`) and is the next cell's baseline."""

    paths: tuple[Path, ...] = ()
    strict: tuple[Path, ...] = ()
    listings: tuple[Path, ...] = ()
    seen: list[Baseline] = field(default_factory=list, compare=False, repr=False)

    def take(self, append_only: Iterable[Path] = ()) -> Baseline:
        """The baseline of a cell: the trees and listings as the last check saw them (walked
        now for the first cell), the append-only files as they are now."""
        if not self.seen:
            return Baseline.take(
                self.paths, append_only=append_only, strict=self.strict, listings=self.listings
            )
        last = self.seen[-1]
        return Baseline(last.trees, _appended(append_only), last.strict, last.listed)

    def check(self, base: Baseline) -> list[str]:
        """What changed since base (sorted); what is there now becomes the next baseline."""
        changes, now = base.compare()
        self.seen[:] = [now]
        return changes


def _listing(folder: str) -> dict[str, Signature]:
    """The .pth and site/user customize files of a folder, with their signatures."""
    try:
        names = [e.name for e in os.scandir(folder)]
    except OSError:
        return {}
    keep = [n for n in names if n.endswith(".pth") or n in ("sitecustomize.py", "usercustomize.py")]
    return {n: _signature(os.path.join(folder, n)) for n in keep}


def harness_paths(tasks_dir: Path, fixtures_dir: Path, *files: Path) -> list[Path]:
    """What a cell must leave as it found it: the task folders (checks, references), the
    fixtures, this package (the probe included), and files such as the project's conftest.py
    and pyproject.toml, which run or configure the next session."""
    return [tasks_dir, fixtures_dir, PACKAGE, *files]


def message(changes: list[str]) -> str:
    """The invalid reason of a cell after which the harness was found changed."""
    more = f" (and {len(changes) - 1} more)" if len(changes) > 1 else ""
    return f"{MESSAGE}: {changes[0]}{more}"
