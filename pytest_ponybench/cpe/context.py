"""What a case brings besides its prompt and graders: the earlier conversation it resumes
(`context.history_file`) and the MCP mocks that answer for it (`mocks/`), as a task's files.

- The history file is copied as it is (`history/<name>`, task.toml's `history`): a Claude Code
  session the first turn resumes, as CPE resumes it.
- CPE serves a case the mocks of every `mocks/` folder from the eval dir down to the case's own
  folder, a deeper folder's file taking the place of the same file above it; the task gets them
  merged as its own `mocks/<server>/...`. A mock with no equivalent here (one a model plays:
  `type: agent`, `_server.md`, `abort_when`) is left out and listed, as is any other the task
  loader would refuse, so the task always loads.

A file whose real path lies outside the suite is refused with the whole suite (`HostileSuite`).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pytest_ponybench.core.mocks import MOCKS_DIR, load_mocks
from pytest_ponybench.cpe.cases import Case, confined
from pytest_ponybench.cpe.mapping import DIFFERS, NOT_IMPORTED, Item

__all__ = ["HISTORY_DIR", "CaseContext", "case_context", "mock_layers"]

HISTORY_DIR = "history"
_PROBLEM_FILE = re.compile(r"^(mocks/[^:]+?)(?::| \()")


@dataclass
class CaseContext:
    """A case's history and mocks as task files, and the checklist lines about them."""

    files: dict[str, bytes] = field(default_factory=dict)
    history: str | None = None  # task.toml's `history` (a path among `files`)
    mocked: frozenset[str] = frozenset()  # the tools the task's mocks answer for
    items: list[Item] = field(default_factory=list)


def mock_layers(case_dir: Path, evals_dir: Path) -> list[Path]:
    """The `mocks/` folders that apply to a case, the eval dir's first, the case's own last."""
    chain = [case_dir, *case_dir.parents]
    top = chain.index(evals_dir) if evals_dir in chain else 0
    return [f / MOCKS_DIR for f in reversed(chain[: top + 1]) if (f / MOCKS_DIR).is_dir()]


def _merged(layers: list[Path], evals_dir: Path, root: Path) -> dict[str, tuple[bytes, str]]:
    """rel under mocks/ -> (content, the folder it came from), a deeper layer's file winning."""
    out: dict[str, tuple[bytes, str]] = {}
    for layer in layers:
        where = layer.relative_to(root).as_posix()
        for path in sorted(layer.rglob("*")):
            rel = path.relative_to(layer)
            if any(p.startswith(".") for p in rel.parts) or not path.is_file():
                continue
            confined(path, evals_dir, f"{where}/{rel.as_posix()}")
            if len(rel.parts) < 2:
                continue  # a file beside the server folders: not a mock (the CLI skips it too)
            out[rel.as_posix()] = (path.read_bytes(), where)
    return out


def _loads(files: dict[str, bytes]) -> tuple[frozenset[str], list[str]]:
    """The mocked tools of these files as the task loader reads them, and its problems."""
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ponybench-mocks-") as scratch:
        root = Path(scratch)
        for rel, data in files.items():
            target = root / MOCKS_DIR / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        mocks = load_mocks(root, problems.append)
    return (mocks.tools if mocks is not None else frozenset()), problems


def _mocks(case: Case, evals_dir: Path, root: Path, out: CaseContext) -> None:
    merged = _merged(mock_layers(case.dir, evals_dir), evals_dir, root)
    files = {rel: data for rel, (data, _) in merged.items()}
    for _ in range(len(files) + 1):  # each round drops the files the loader refuses
        tools, problems = _loads(files)
        dropped = False
        for problem in problems:
            match = _PROBLEM_FILE.match(problem)
            rel = match[1].removeprefix(f"{MOCKS_DIR}/").rstrip("/") if match else None
            gone = [f for f in files if rel and (f == rel or f.startswith(rel + "/"))]
            origin = merged[gone[0]][1] if gone else "mocks"
            out.items.append(Item(NOT_IMPORTED, f"{origin}/{problem.removeprefix(MOCKS_DIR + '/')}"))
            for f in gone:
                del files[f]
                dropped = True
        if not problems or not dropped:
            break
    out.files.update({f"{MOCKS_DIR}/{rel}": data for rel, data in files.items()})
    out.mocked = tools if files else frozenset()
    if any(b"expect:" in data for rel, data in files.items() if rel.endswith(".md")):
        out.items.append(
            Item(
                DIFFERS,
                "a mock's expect: guard that a call breaks stops the run in CPE (a valid failure); here "
                "the call is answered with that error, recorded with the verdict abort, and the run goes on",
            )
        )


def _history(case: Case, evals_dir: Path, out: CaseContext, problems: list[str]) -> None:
    rel = str(case.history_file)
    path = case.dir / rel
    where = f"{case.where}: key 'context.history_file'"
    if Path(rel).is_absolute() or not path.is_file():
        problems.append(f"{where}: {rel!r} is not a file of the case's folder (the session to resume)")
        return
    confined(path, evals_dir, f"{case.where}: context.history_file {rel!r}")
    out.history = f"{HISTORY_DIR}/{path.name}"
    out.files[out.history] = path.read_bytes()


def case_context(case: Case, evals_dir: Path, root: Path, problems: list[str]) -> CaseContext:
    """The case's history and mocks as task files; a history that cannot be had is a problem
    (CPE cannot run the case either)."""
    out = CaseContext()
    if case.history_file is not None:
        _history(case, evals_dir, out, problems)
    _mocks(case, evals_dir, root, out)
    return out
