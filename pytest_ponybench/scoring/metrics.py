"""What an agent delivered, in numbers: lines, files and compressed size of the code it wrote.

Everything here is a pure function of text except `workspace_files`, `delivered_stats` and
`diff_stats`, which read a cell's workspace (and, for the diff, run git in it).

Line counting is deliberately simple and line-based, so a number can be checked by eye:
- a line is a "\\n"-separated line, as git and `wc -l` count them; blank lines never count;
- a comment-only line is one whose stripped text starts with `//`, `/*`, `*/`, `<!--`, `-->`,
  `#` followed by whitespace / `#` / `!` / `:` / end of line, `*` followed by whitespace or end
  of line (the middle of a block comment), or `--` followed by whitespace or end (SQL, Lua).
  The guards after `#`, `*` and `--` keep real code out: CSS `#id {`, JS `#field = 0;`, C
  `#include`, Python `*args,` / `*,` and JS `--i;` are code;
- Python docstrings are NOT recognised: they count as code lines (no parsing, no surprises).

Tests are never counted as bloat: writing a test is good practice, so test lines are a separate
number. Seeded files the agent did not touch are never delivered code.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath
from typing import cast

from pytest_ponybench._util import gitcmd
from pytest_ponybench._util.gitcmd import GitError
from pytest_ponybench.core.records import Record

__all__ = [
    "CODE_SUFFIXES",
    "CodeStats",
    "chat_code_lines",
    "check_agent_repo",
    "code_stats",
    "count_lines",
    "delivered_stats",
    "diff_stats",
    "file_sha256",
    "gz_size",
    "is_generated_or_lock",
    "is_test_path",
    "split_selfcheck",
    "workspace_files",
]

# Only code counts: data, media and prose the agent writes must not move the size numbers.
CODE_SUFFIXES: frozenset[str] = frozenset(
    {
        ".py",
        ".pyi",
        ".js",
        ".jsx",
        ".ts",
        ".tsx",
        ".mjs",
        ".cjs",
        ".mts",
        ".cts",
        ".vue",
        ".svelte",
        ".html",
        ".htm",
        ".css",
        ".scss",
        ".sass",
        ".less",
        ".go",
        ".rs",
        ".java",
        ".kt",
        ".kts",
        ".scala",
        ".rb",
        ".php",
        ".swift",
        ".c",
        ".h",
        ".cc",
        ".cpp",
        ".hpp",
        ".cs",
        ".sh",
        ".bash",
        ".zsh",
        ".sql",
        ".lua",
        ".pl",
    }
)

_COMMENT = re.compile(r"#(?:[\s#!:]|$)|//|/\*|\*/|\*(?:\s|$)|<!--|-->|--(?:\s|$)")


def _is_comment(stripped: str) -> bool:
    return _COMMENT.match(stripped) is not None


def count_lines(text: str, *, comments: bool) -> int:
    """Non-blank lines; with comments=False, comment-only lines are left out too (module doc)."""
    n = 0
    for line in text.split("\n"):
        s = line.strip()
        if s and (comments or not _is_comment(s)):
            n += 1
    return n


_TEST_DIRS = frozenset({"test", "tests", "__tests__"})


def is_test_path(rel: str) -> bool:
    """Whether a workspace-relative POSIX path is a test by the usual conventions.

    pytest (`test_*`, `*_test`, `conftest.py`), Go (`*_test.go`), JS/TS runners (`*.test.*`,
    `*.spec.*`) and anything under a `test`, `tests` or `__tests__` directory.
    """
    path = PurePosixPath(rel)
    name = path.name.lower()
    parts = name.split(".")
    if (
        name.startswith("test_")
        or parts[0].endswith("_test")
        or name == "conftest.py"
        or (len(parts) >= 3 and parts[-2] in ("test", "spec"))
    ):
        return True
    return any(part.lower() in _TEST_DIRS for part in path.parts[:-1])


# Column 0 only: an indented `if __name__` or a method named demo is part of the source.
# `main` and `_check` are left out on purpose: both are common names for real code.
_SELFCHECK_NAMES = (
    "demo",
    "_demo",
    "selfcheck",
    "_selfcheck",
    "self_check",
    "_self_check",
    "smoke",
    "_smoke",
    "main_check",
)
_SELFCHECK = re.compile(r"if\s+__name__\s*==|(?:async\s+)?def\s+(?:" + "|".join(_SELFCHECK_NAMES) + r")\s*\(")


def split_selfcheck(text: str) -> tuple[str, str]:
    """(source, self-check): split at the first top-level self-check marker, through end of file.

    Markers: `if __name__ == ...` or `def`/`async def` of demo, _demo, selfcheck, _selfcheck,
    self_check, _self_check, smoke, _smoke, main_check, all at column 0. On a surgical task
    that delivers one function, such a check is the runnable check good practice asks for, so
    it is counted as test lines rather than source bloat. Everything after the marker goes
    with it (agents put the check last). `source + selfcheck == text` always holds.
    """
    offset = 0
    for line in text.split("\n"):
        if _SELFCHECK.match(line):
            return text[:offset], text[offset:]
        offset += len(line) + 1
    return text, ""


def gz_size(text: str) -> int:
    """Raw deflate size (level 9, no header) in bytes: a description-length proxy.

    Repeated names and boilerplate compress away, so squeezing code onto fewer lines gains
    much less here than in a line count.
    """
    data = text.encode("utf-8", "surrogatepass")
    if not data:
        return 0
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return len(packer.compress(data) + packer.flush())


# Blocks that show program output rather than code the user would have to read and keep.
_NON_CODE_TAGS = frozenset({"text", "txt", "plain", "plaintext", "output", "console", "log", "stdout"})
_FENCE_OPEN = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)$")


def chat_code_lines(text: str) -> tuple[int, int]:
    """(lines incl comments, code-only lines) inside fenced blocks of a chat reply.

    ``` and ~~~ fences with any info string; a fence closes on a line of the same character at
    least as long (CommonMark). An unclosed fence runs to the end of the reply. Blocks tagged
    as output (text, console, output, log ...) are skipped, as non-code files are.
    """
    kept: list[str] = []
    fence = ""
    counting = False
    for line in text.split("\n"):
        if not fence:
            m = _FENCE_OPEN.match(line)
            # A backtick fence's info string cannot hold a backtick: that is inline code.
            if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                fence = m.group(1)
                words = m.group(2).split()
                counting = not words or words[0].lower() not in _NON_CODE_TAGS
            continue
        s = line.strip()
        if len(s) >= len(fence) and s == fence[0] * len(s):
            fence = ""
        elif counting:
            kept.append(line)
    block = "\n".join(kept)
    return count_lines(block, comments=True), count_lines(block, comments=False)


_LOCK_NAMES = frozenset(
    {
        "package-lock.json",
        "npm-shrinkwrap.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "bun.lockb",
        "bun.lock",
        "deno.lock",
        "poetry.lock",
        "pipfile.lock",
        "pdm.lock",
        "uv.lock",
        "cargo.lock",
        "gemfile.lock",
        "composer.lock",
        "go.sum",
        "flake.lock",
        "mix.lock",
        "podfile.lock",
        "packages.lock.json",
    }
)
_GENERATED_ENDINGS = (
    ".lock",
    "-lock.json",
    "-lock.yaml",
    ".min.js",
    ".min.mjs",
    ".min.css",
    ".map",
    ".gen.ts",
    ".gen.tsx",
    ".gen.js",
    ".gen.go",
    ".pb.go",
    ".pb.h",
    ".pb.cc",
    "_pb2.py",
    "_pb2.pyi",
    "_pb2_grpc.py",
    ".pyc",
)
_GENERATED_DIRS = frozenset({"__pycache__", "node_modules"})


def is_generated_or_lock(rel: str) -> bool:
    """Lockfiles and generated files: written by tools, not authored, so never delivered code."""
    path = PurePosixPath(rel)
    name = path.name.lower()
    return (
        name in _LOCK_NAMES
        or name.endswith(_GENERATED_ENDINGS)
        or ".generated." in name
        or any(part in _GENERATED_DIRS for part in path.parts[:-1])
    )


@dataclass(frozen=True)
class CodeStats:
    files: int = 0
    src_files: int = 0
    test_files: int = 0
    total_loc: int = 0  # source lines incl comments: the bloat a reader must read
    src_loc: int = 0  # source lines without comment-only lines
    test_loc: int = 0  # test lines (test files + in-file self-checks when split off)
    gz_code: int = 0  # gz_size of the source text

    def as_record(self) -> Record:
        """Its fields, named as the record's keys, in their order."""
        return cast(Record, asdict(self))


# Never descended into: dependencies, caches, VCS data and environments are not delivered code.
_SKIP_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})
_HARNESS_PREFIX = "_ponybench"


def _countable(rel: str) -> bool:
    """A code file that could be delivered code (shared by the file walk and the diff)."""
    path = PurePosixPath(rel)
    if any(p.startswith(".") or p in _SKIP_DIRS for p in path.parts[:-1]):
        return False
    name = path.name
    return (
        not name.startswith((".", _HARNESS_PREFIX))
        and path.suffix.lower() in CODE_SUFFIXES
        and not is_generated_or_lock(rel)
    )


def workspace_files(workspace: Path, exclude: Iterable[str] = ()) -> list[str]:
    """Sorted POSIX relative paths of the regular code files in a workspace, minus exclude.

    Symlinks are never followed or read: one pointing out of the workspace would otherwise
    count (or leak) files the agent did not write.
    """
    excluded = set(exclude)
    found: list[str] = []
    for root, dirs, names in os.walk(workspace, followlinks=False):
        base = Path(root)
        dirs[:] = [
            d
            for d in dirs
            if not d.startswith(".")
            and d not in _SKIP_DIRS
            and not os.path.islink(base / d)
            and not (base / d / "pyvenv.cfg").exists()
        ]  # a virtualenv by any name
        for name in names:
            rel = (base / name).relative_to(workspace).as_posix()
            if rel in excluded or not _countable(rel):
                continue
            if stat.S_ISREG(os.lstat(base / name).st_mode):
                found.append(rel)
    return sorted(found)


def code_stats(files: Mapping[str, str], *, selfcheck_as_test: bool) -> CodeStats:
    """Stats from {relpath: text}. selfcheck_as_test moves in-file self-checks of .py sources
    to the test side (surgical tasks); gz_code covers the source parts, in path order."""
    sources: list[str] = []
    src_files = test_files = test_loc = 0
    for rel in sorted(files):
        text = files[rel]
        if is_test_path(rel):
            test_files += 1
            test_loc += count_lines(text, comments=True)
            continue
        src_files += 1
        if selfcheck_as_test and rel.endswith(".py"):
            text, check = split_selfcheck(text)
            test_loc += count_lines(check, comments=True)
        sources.append(text)
    source = "\n".join(sources)
    return CodeStats(
        files=src_files + test_files,
        src_files=src_files,
        test_files=test_files,
        total_loc=count_lines(source, comments=True),
        src_loc=count_lines(source, comments=False),
        test_loc=test_loc,
        gz_code=gz_size(source),
    )


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def delivered_stats(workspace: Path, *, seeded: Mapping[str, str], selfcheck_as_test: bool) -> CodeStats:
    """File-based stats of what the agent delivered; seeded maps relpath -> sha256 of the seed.

    A seeded file counts (whole) only when its bytes changed: an untouched starter file or
    fixture is not the agent's work.
    """
    texts: dict[str, str] = {}
    for rel in workspace_files(workspace):
        path = workspace / rel
        if rel in seeded and file_sha256(path) == seeded[rel]:
            continue
        texts[rel] = path.read_bytes().decode("utf-8", "replace")
    return code_stats(texts, selfcheck_as_test=selfcheck_as_test)


def _git(workspace: Path, git_dir: Path | None, *args: str, stdin: bytes = b"") -> bytes:
    return gitcmd.check(workspace, *args, repo=workspace, stdin=stdin, git_dir=git_dir)


def check_agent_repo(workspace: Path, *, config: bool = True) -> None:
    """Refuse a workspace's own repository that the agent could have turned against the harness,
    before any harness git command runs in it (only kept workspaces of older runs, which have
    no harness copy of the base, are diffed through it).

    The agent may write anywhere in its workspace, .git included, and this git runs outside the
    sandbox: a clean filter in the config runs a command on `git add`, and a link in `.git`
    makes git read and write wherever it points. Diff and textconv drivers are disabled by
    flags, fsmonitor by -c; filters and links can only be refused. Without config, only the
    links are checked (for commands that read objects and never the work tree: no filter runs).
    """
    git_dir = workspace / ".git"
    if git_dir.is_symlink() or not git_dir.is_dir():
        raise GitError(f"{workspace} has no .git directory of its own")
    for dirpath, dirnames, filenames in os.walk(git_dir):
        for name in (*dirnames, *filenames):
            st = os.lstat(os.path.join(dirpath, name))
            if not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
                rel = os.path.relpath(os.path.join(dirpath, name), workspace)
                raise GitError(f"refusing to run git in {workspace}: {rel} is a link or a special file")
    if not config:
        return
    keys = _git(workspace, None, "config", "--list", "--name-only", "-z").split(b"\0")
    bad = sorted({k.decode("utf-8", "replace") for k in keys if k.lower().startswith(b"filter.")})
    if bad:
        raise GitError(f"refusing to run git in {workspace}: config sets {bad}")


def _base(workspace: Path, git_dir: Path | None) -> str:
    try:
        roots = _git(workspace, git_dir, "rev-list", "--max-parents=0", "HEAD").split()
    except GitError:
        roots = []
    if roots:
        return roots[-1].decode()
    # No commit at all: nothing was seeded, so everything is the agent's (the empty tree).
    return _git(workspace, git_dir, "hash-object", "-t", "tree", "--stdin").decode().strip()


_DIFF_FLAGS = ("--cached", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv")


def _added_lines(patch: bytes) -> list[str]:
    """Content of the '+' lines in hunks of a unified diff (file headers are not content)."""
    added: list[str] = []
    in_hunk = False
    for line in patch.decode("utf-8", "replace").split("\n"):
        if line.startswith("diff --git "):
            in_hunk = False
        elif line.startswith("@@"):
            in_hunk = True
        elif in_hunk and line.startswith("+"):
            added.append(line[1:])
    return added


def diff_stats(workspace: Path, git_dir: Path | None = None) -> CodeStats:
    """Added lines of code files vs the seeded base (the first commit): the PR's '+N'.

    git_dir is the harness's own copy of the base repository (workspace.snapshot's keep), which
    the agent never saw; without it the workspace's own `.git` is used, after check_agent_repo.

    Stages everything (`git add -A`; .gitignore'd files stay out, as in a PR), lists changed
    files with `--numstat` (binary skipped, renames seen as add + delete), and counts the
    non-blank added lines exactly as `count_lines` does, tests apart. Lockfiles, generated
    files, dot-paths, symlinks and harness files are skipped. No change gives all zeros.
    """
    workspace = workspace.absolute()  # git runs with cwd = workspace: GIT_DIR must not be relative
    if git_dir is None:
        check_agent_repo(workspace)
    else:
        git_dir = git_dir.absolute()
    _git(workspace, git_dir, "add", "-A")
    base = _base(workspace, git_dir)
    numstat = _git(workspace, git_dir, "diff", *_DIFF_FLAGS, "--numstat", "-z", base)
    src_paths: list[str] = []
    test_paths: list[str] = []
    for record in numstat.split(b"\0"):
        fields = record.decode("utf-8", "surrogateescape").split("\t", 2)
        if len(fields) != 3 or not fields[0].isdigit() or int(fields[0]) == 0:
            continue  # '-' is binary; 0 added is a pure deletion, nothing delivered
        rel = fields[2]
        if not _countable(rel) or os.path.islink(workspace / rel):
            continue
        (test_paths if is_test_path(rel) else src_paths).append(rel)

    def added(paths: list[str]) -> str:
        if not paths:
            return ""
        return "\n".join(
            _added_lines(_git(workspace, git_dir, "diff", *_DIFF_FLAGS, "-U0", base, "--", *paths))
        )

    source = added(src_paths)
    return CodeStats(
        files=len(src_paths) + len(test_paths),
        src_files=len(src_paths),
        test_files=len(test_paths),
        total_loc=count_lines(source, comments=True),
        src_loc=count_lines(source, comments=False),
        test_loc=count_lines(added(test_paths), comments=True),
        gz_code=gz_size(source),
    )
