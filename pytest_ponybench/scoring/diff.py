"""What the agent changed in its workspace: a unified diff of the kept workspace against the
seeded base, the workspace's first commit.

The base comes from git (the root commit's tree, read with `rev-list`, `ls-tree` and
`cat-file`, commands that never read the work tree, so no filter or hook the agent may have
written into `.git` can run); the work tree is read here, without following symlinks, and the
two are compared with difflib. One git read serves every cell seeded alike (same `seeded.json`),
so a 5,000-cell run needs a few git processes per task rather than several per cell.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import stat
from collections.abc import Callable, Mapping
from pathlib import Path

from pytest_ponybench._util import gitcmd
from pytest_ponybench._util.textfiles import printable
from pytest_ponybench.scoring.metrics import check_agent_repo

__all__ = [
    "BINARY_PROBE",
    "BaseUnreadable",
    "MAX_DIFF_CHARS",
    "MAX_FILE_BYTES",
    "base_files",
    "base_tree",
    "unified",
    "workspace_diff",
    "workspace_files",
]

MAX_FILE_BYTES = 1_000_000  # a larger file is named, not shown
MAX_DIFF_CHARS = 300_000
BINARY_PROBE = 8_000


class BaseUnreadable(Exception):
    """The workspace has no readable base commit (no .git, or git failed)."""


def base_files(workspace: Path, git_dir: Path | None = None) -> dict[str, bytes]:
    """Path -> content of every file in the base's first commit (a symlink's target text).

    git_dir is the harness's copy of the base repository; without it (a run dir of an older
    version) the workspace's own `.git`, once nothing in it is a link or a special file.
    """
    return {path: data for path, (_mode, data) in base_tree(workspace, git_dir).items()}


def base_tree(workspace: Path, git_dir: Path | None = None) -> dict[str, tuple[str, bytes]]:
    """Path -> (git mode, content) of every file in the base's first commit: `120000` marks a
    symlink (its content is the target's text), `100644`/`100755` a file. As base_files."""
    try:
        if git_dir is None:
            check_agent_repo(workspace, config=False)
        roots = gitcmd.check(
            workspace, "rev-list", "--max-parents=0", "HEAD", repo=workspace, git_dir=git_dir
        ).split()
        if not roots:
            raise BaseUnreadable(f"{workspace}: no commit")
        listing = gitcmd.check(
            workspace, "ls-tree", "-r", "-z", roots[-1].decode(), repo=workspace, git_dir=git_dir
        )
        entries: list[tuple[str, str, str]] = []
        for rec in listing.split(b"\0"):
            head, sep, raw_path = rec.partition(b"\t")
            fields = head.split()
            if sep and len(fields) == 3 and fields[1] == b"blob":
                path = raw_path.decode("utf-8", "surrogateescape")
                entries.append((path, fields[0].decode(), fields[2].decode()))
        if not entries:
            return {}
        blobs = gitcmd.check(
            workspace,
            "cat-file",
            "--batch",
            repo=workspace,
            git_dir=git_dir,
            stdin="".join(f"{sha}\n" for _, _, sha in entries).encode(),
        )
    except gitcmd.GitError as exc:
        raise BaseUnreadable(str(exc)) from exc
    out: dict[str, tuple[str, bytes]] = {}
    pos = 0
    for path, mode, _sha in entries:
        end = blobs.index(b"\n", pos)
        header = blobs[pos:end].split()
        if len(header) != 3:  # "<sha> missing"
            pos = end + 1
            continue
        size = int(header[2])
        out[path] = (mode, blobs[end + 1 : end + 1 + size])
        pos = end + 1 + size + 1
    return out


def _read(entry: os.DirEntry[str]) -> bytes | str:
    """The file's bytes, a symlink's target, or a note (str) saying why it is not shown."""
    try:
        st = entry.stat(follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            return os.readlink(entry.path).encode("utf-8", "surrogateescape")
        if not stat.S_ISREG(st.st_mode):
            return "not a regular file"
        if st.st_size > MAX_FILE_BYTES:
            return f"{st.st_size} bytes, too large to show"
        with open(entry.path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        return f"unreadable: {exc.strerror or exc}"


def workspace_files(workspace: Path) -> dict[str, bytes | str]:
    """Every file under the workspace but the top .git, symlinks not followed."""
    out: dict[str, bytes | str] = {}
    todo = [(str(workspace), "")]
    while todo:
        folder, prefix = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError as exc:
            out[prefix or "."] = f"unreadable: {exc.strerror or exc}"
            continue
        for entry in entries:
            rel = prefix + entry.name
            if entry.is_dir(follow_symlinks=False):
                if rel != ".git":
                    todo.append((entry.path, rel + "/"))
            else:
                out[rel] = _read(entry)
    return out


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "replace").splitlines(keepends=True)


def _ended(line: str) -> str:
    return line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"


def _binary(data: bytes) -> bool:
    return b"\0" in data[:BINARY_PROBE]


def unified(base: Mapping[str, bytes], current: Mapping[str, bytes | str]) -> str:
    """A git-style unified diff (`diff --git` headers, new/deleted file lines) of base -> current."""
    parts: list[str] = []
    for key in sorted(set(base) | set(current)):
        old, new = base.get(key), current.get(key)
        if old is not None and old == new:
            continue
        path = printable(key)  # a name with bytes that are not UTF-8, newlines or controls
        header = f"diff --git a/{path} b/{path}\n"
        if isinstance(new, str):
            parts.append(f"{header}# {path}: {new}\n")
            continue
        if old is None:
            header += "new file\n"
        elif new is None:
            header += "deleted file\n"
        if (old and _binary(old)) or (new and _binary(new)):
            parts.append(f"{header}Binary files differ\n")
            continue
        if old is None and new is not None:  # a new file: every line added, no matching to do
            lines = _lines(new)
            body = "".join("+" + _ended(line) for line in lines)
            parts.append(
                f"{header}--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n{body}"
                if lines
                else header
            )
            continue
        hunks = difflib.unified_diff(
            _lines(old or b""),
            _lines(new or b""),
            fromfile="/dev/null" if old is None else f"a/{path}",
            tofile="/dev/null" if new is None else f"b/{path}",
        )
        parts.append(header + "".join(_ended(line) for line in hunks))
    return "".join(parts)


def workspace_diff(
    workspace: Path, base: Callable[[], Mapping[str, bytes]], seeded: Mapping[str, str] | None = None
) -> str:
    """The diff of the workspace against its base, which `base()` reads from git.

    With the seeded manifest (path -> sha256 of what was laid, the base commit's content), a
    file that still hashes as seeded is unchanged, and the base is read only when a seeded
    file changed or went: most cells only add files, and need no git at all.
    """
    current = workspace_files(workspace)
    if seeded is None:
        text = unified(base(), current)
    else:
        changed = {
            path: data
            for path, data in current.items()
            if not (isinstance(data, bytes) and hashlib.sha256(data).hexdigest() == seeded.get(path))
        }
        touched = [p for p in seeded if p in changed or p not in current]
        old = base() if touched else {}
        text = unified({p: old[p] for p in touched if p in old}, changed)
    if len(text) > MAX_DIFF_CHARS:
        text = text[:MAX_DIFF_CHARS] + f"\n# ... diff cut at {MAX_DIFF_CHARS} characters\n"
    return text
