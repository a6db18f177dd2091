"""Benchmark task folders: loading and validation.

A task folder is the unit a benchmark author writes. Every problem in it is reported at
collection time with the folder, file and key, and one broken folder never hides the errors of
the others (`load_tasks` gathers them all before raising).
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("surgical", "fixture", "open")
AXES = ("safe", "correct")
CHECK_PREFIXES = ("test_correct", "test_safe")
KNOWN_KEYS = {"kind", "file", "fixture", "axis", "tags", "timeout", "description", "max_turns"}
DEFAULT_CHECK_TIMEOUT = 60.0


class TaskError(Exception):
    """One or more malformed task folders; the message lists every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class Task:
    id: str
    path: Path
    kind: str
    prompt: str
    file: str | None = None
    fixture: str | None = None
    fixture_path: Path | None = None
    axis: str = "safe"
    tags: tuple[str, ...] = ()
    timeout: float = DEFAULT_CHECK_TIMEOUT
    description: str = ""
    max_turns: int | None = None
    seed: dict[str, bytes] = field(default_factory=dict, repr=False)
    good: dict[str, bytes] = field(default_factory=dict, repr=False)
    bad: dict[str, bytes] = field(default_factory=dict, repr=False)
    checks: dict[str, bytes] = field(default_factory=dict, repr=False)

    @property
    def has_references(self) -> bool:
        return self.kind != "open"

    def reference(self, which: str) -> dict[str, bytes]:
        """The files of the good or bad reference, relative to the workspace."""
        if which not in ("good", "bad"):
            raise ValueError(f"reference must be 'good' or 'bad', not {which!r}")
        return self.good if which == "good" else self.bad

    def content_hash(self) -> str:
        """Hash of everything that defines the task, fixture included, for provenance."""
        h = hashlib.sha256()
        h.update(self.prompt.encode())
        for part in ("seed", "good", "bad", "checks"):
            for name, data in sorted(getattr(self, part).items()):
                h.update(f"{part}/{name}\0".encode())
                h.update(data)
        if self.fixture_path is not None:
            h.update(tree_hash(self.fixture_path).encode())
        for key in ("kind", "file", "fixture", "axis"):
            h.update(f"{key}={getattr(self, key)}\0".encode())
        return h.hexdigest()[:16]


def read_tree(root: Path) -> dict[str, bytes]:
    """Every regular file under root, keyed by its POSIX path relative to root."""
    if not root.is_dir():
        return {}
    out: dict[str, bytes] = {}
    for p in sorted(root.rglob("*")):
        if "__pycache__" in p.parts or p.is_symlink() or not p.is_file():
            continue
        out[p.relative_to(root).as_posix()] = p.read_bytes()
    return out


def tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for name, data in read_tree(root).items():
        h.update(name.encode() + b"\0")
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()[:16]


def load_task(folder: Path, fixtures_dir: Path | None = None) -> Task:
    """Load one task folder or raise TaskError listing everything wrong with it."""
    problems: list[str] = []
    where = str(folder)

    def bad(msg: str) -> None:
        problems.append(f"{where}: {msg}")

    toml_path = folder / "task.toml"
    meta: dict[str, object] = {}
    if not toml_path.is_file():
        bad("task.toml: missing (every task folder needs one)")
    else:
        try:
            meta = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            bad(f"task.toml: not valid TOML: {exc}")
    unknown = sorted(set(meta) - KNOWN_KEYS)
    if unknown:
        bad(f"task.toml: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(KNOWN_KEYS))})")

    kind = meta.get("kind", "surgical")
    if kind not in KINDS:
        bad(f"task.toml: key 'kind' is {kind!r}; expected one of {', '.join(KINDS)}")
    axis = meta.get("axis", "safe")
    if axis not in AXES:
        bad(f"task.toml: key 'axis' is {axis!r}; expected 'safe' or 'correct'")
    file = meta.get("file")
    if file is not None and (
        not isinstance(file, str) or not file or Path(file).is_absolute() or ".." in Path(file).parts
    ):
        bad(f"task.toml: key 'file' must be a relative path inside the workspace, not {file!r}")
        file = None
    tags = meta.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) and t.isidentifier() for t in tags):
        bad(f"task.toml: key 'tags' must be a list of identifiers (usable with -m), not {tags!r}")
        tags = []
    timeout = meta.get("timeout", DEFAULT_CHECK_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        bad(f"task.toml: key 'timeout' must be a positive number of seconds, not {timeout!r}")
        timeout = DEFAULT_CHECK_TIMEOUT
    max_turns = meta.get("max_turns")
    if max_turns is not None and (
        isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1
    ):
        bad(f"task.toml: key 'max_turns' must be a positive integer, not {max_turns!r}")
        max_turns = None
    description = meta.get("description", "")
    if not isinstance(description, str):
        bad("task.toml: key 'description' must be a string")
        description = ""

    fixture = meta.get("fixture")
    fixture_path: Path | None = None
    if kind == "fixture":
        if not isinstance(fixture, str) or not fixture:
            bad("task.toml: kind = \"fixture\" needs key 'fixture' naming a folder under fixtures/")
        elif fixtures_dir is None or not (fixtures_dir / fixture).is_dir():
            bad(f"task.toml: key 'fixture' names {fixture!r}, but {fixtures_dir}/{fixture} does not exist")
        else:
            fixture_path = (fixtures_dir / fixture).resolve()
    elif fixture is not None:
        bad(f"task.toml: key 'fixture' is only for kind = \"fixture\" (this task is {kind!r})")

    prompt = ""
    prompt_path = folder / "prompt.md"
    if not prompt_path.is_file():
        bad("prompt.md: missing (the prompt the agent gets)")
    else:
        prompt = prompt_path.read_text(encoding="utf-8").strip()
        if not prompt:
            bad("prompt.md: empty")

    seed = read_tree(folder / "seed")
    good = read_tree(folder / "good")
    bad_ref = read_tree(folder / "bad")
    checks = read_tree(folder / "checks")
    if kind != "open":
        if not good:
            bad("good/: missing or empty (the reference solution that must pass)")
        if not bad_ref:
            bad(f"bad/: missing or empty (the reference that must fail on axis {axis!r})")
        if file is None and kind == "surgical":
            bad("task.toml: kind = \"surgical\" needs key 'file' (the main deliverable)")
        elif file is not None and good and file not in good:
            bad(f"good/: has no {file} (task.toml key 'file')")
        if not checks:
            bad("checks/: missing or empty (hidden test_correct*.py / test_safe*.py files)")
    for name in checks:
        base = Path(name).name
        if name.endswith(".py") and "/" not in name and base not in ("conftest.py", "__init__.py"):
            if not base.startswith(CHECK_PREFIXES):
                bad(f"checks/{name}: check files must be named test_correct*.py or test_safe*.py")
    if kind != "open" and checks and axis in AXES:
        wanted = "test_safe" if axis == "safe" else "test_correct"
        if not any(Path(n).name.startswith(wanted) and "/" not in n for n in checks):
            bad(f"checks/: axis = {axis!r} but there is no {wanted}*.py to decide it")

    if problems:
        raise TaskError(problems)
    return Task(
        id=folder.name,
        path=folder.resolve(),
        kind=str(kind),
        prompt=prompt,
        file=file if isinstance(file, str) else None,
        fixture=fixture if isinstance(fixture, str) else None,
        fixture_path=fixture_path,
        axis=str(axis),
        tags=tuple(tags),
        timeout=float(timeout),
        description=description,
        max_turns=max_turns,
        seed=seed,
        good=good,
        bad=bad_ref,
        checks=checks,
    )


def task_folders(tasks_dir: Path) -> list[Path]:
    return sorted(p for p in tasks_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def load_tasks(tasks_dir: Path, fixtures_dir: Path | None = None) -> list[Task]:
    """Load every task under tasks_dir; raise one TaskError with the problems of all folders."""
    if not tasks_dir.is_dir():
        raise TaskError([f"{tasks_dir}: tasks folder does not exist"])
    tasks: list[Task] = []
    problems: list[str] = []
    for folder in task_folders(tasks_dir):
        if not folder.name.replace("-", "_").isidentifier():
            problems.append(f"{folder}: task id {folder.name!r} must be letters, digits, _ or -")
            continue
        try:
            tasks.append(load_task(folder, fixtures_dir))
        except TaskError as exc:
            problems.extend(exc.problems)
    if problems:
        raise TaskError(problems)
    return tasks


def select(tasks: Iterable[Task], wanted: Iterable[str]) -> list[Task]:
    """Tasks whose id or one of whose tags is named in wanted; unknown names are an error."""
    names = [w for w in wanted if w]
    tasks = list(tasks)
    known = {t.id for t in tasks} | {tag for t in tasks for tag in t.tags}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise TaskError(
            [
                f"--tasks: unknown task id or tag {', '.join(map(repr, unknown))} "
                f"(known: {', '.join(sorted(known))})"
            ]
        )
    if not names:
        return tasks
    return [t for t in tasks if t.id in names or set(t.tags) & set(names)]
