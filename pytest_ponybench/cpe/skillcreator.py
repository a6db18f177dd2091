"""skill-creator's evals as ponybench task folders: `evals/evals.json` and its trigger sets.

skill-creator (the skill that writes and tests skills) keeps a skill's evals in the skill's own
folder: `evals/evals.json` is `{skill_name, evals: [{id, prompt, expected_output, files,
expectations}]}` (`files` relative to the skill's root, `expectations` statements a grader
checks on the run's transcript and outputs), and a trigger set is a JSON list of `{query,
should_trigger}` (its `run_eval.py` runs each query 3 times, at most 8 turns, and counts the
skill as fired when it is called or its SKILL.md read).

Each eval becomes a task (`kind = "open"`): its prompt (and the input files named, as
skill-creator's executor is told them), its files seeded at their paths, one `llm` grader per
expectation (on the reply, or on the diff where the statement names a file), `expected_output`
kept in IMPORTED.md. Each trigger query becomes a task with `expect_fire` true or false. The
skill is the arm: a `plugin` arm when it is one of a plugin's skills, else a `skills` arm of its
folder, against baseline. What has no equivalent is a checklist, as import-cpe prints one.

Every malformed input is one problem naming the file and the key; all of them are raised
together (`CaseError`) before anything is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pytest_ponybench.cpe.cases import CaseError, confined, front_matter, read_text
from pytest_ponybench.cpe.importer import (
    MANIFEST,
    MAX_SEED_BYTES,
    arm_lines,
    checklist_lines,
    next_lines,
    read_files,
    shown_path,
    write_folder,
)
from pytest_ponybench.cpe.mapping import AXES, DIFFERS, KINDS, LABELS, NOT_IMPORTED, TODO, Item, TaskFolder
from pytest_ponybench.cpe.names import arm_name, task_id
from pytest_ponybench.errors import PonybenchError, excerpt

__all__ = [
    "EVALS_FILE",
    "EVAL_KEYS",
    "Eval",
    "NAMES_A_FILE",
    "SKILL_FILE",
    "SkillImport",
    "SkillSuite",
    "SkillTask",
    "TRIGGER_MAX_TURNS",
    "TRIGGER_RUNS",
    "Trigger",
    "import_skill_suite",
    "read_suite",
    "render",
]

EVALS_FILE = "evals.json"
SKILL_FILE = "SKILL.md"
EVAL_KEYS = ("id", "prompt", "expected_output", "files", "expectations")
# What skill-creator's run_eval.py does with a trigger query: 3 runs, at most 8 turns each.
TRIGGER_RUNS = 3
TRIGGER_MAX_TURNS = 8
# An expectation that names a file or a written output is judged on the diff, not the reply.
NAMES_A_FILE = re.compile(
    r"\b(?:files?|writes?|wrote|written|creates?|created|saves?|saved)\b|`[^`\s]*\.[A-Za-z0-9]{1,6}`"
    r"|\b[\w-]+\.(?:json|md|py|js|ts|tsx|html|css|csv|txt|yaml|yml|toml|sql|sh|xml|sv|vhd)\b",
    re.I,
)
_MAX_UP = 3  # how far above a given path its skill's SKILL.md may be


@dataclass(frozen=True)
class Eval:
    """One entry of evals.json, checked."""

    where: str  # `evals/evals.json: evals[2]`
    id: str
    prompt: str
    expected_output: str | None
    files: tuple[str, ...]
    expectations: tuple[str, ...]
    name: str | None = None  # eval_name, which many suites add
    unread: tuple[str, ...] = ()  # keys skill-creator's schema does not have
    as_assertions: bool = False  # the statements were under `assertions`


@dataclass(frozen=True)
class Trigger:
    """One query of a trigger set."""

    where: str
    query: str
    should_trigger: bool


@dataclass
class SkillSuite:
    """A skill's evals: where the skill is, its evals.json (if any) and its trigger sets."""

    skill_dir: Path
    skill_name: str  # evals.json's skill_name, else SKILL.md's name, else the folder's
    evals_file: Path | None
    evals: list[Eval] = field(default_factory=list)
    triggers: list[Trigger] = field(default_factory=list)
    trigger_files: list[Path] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)  # about the suite as a whole


@dataclass(kw_only=True)
class SkillTask(TaskFolder):
    where: str
    summary: str  # what the task holds, for its line
    note: str = ""  # expected_output
    existed: bool = False


@dataclass
class SkillImport:
    suite: SkillSuite
    tasks_dir: Path
    tasks: list[SkillTask]
    arm: tuple[str, str]  # (arm name, "skills:PATH" or "plugin:PATH")


# ------------------------------------------------------------------ reading


def _json(path: Path, where: str, root: Path, problems: list[str]) -> Any:
    try:
        return json.loads(read_text(path, where, root))
    except CaseError as exc:
        problems += exc.problems
    except json.JSONDecodeError as exc:
        problems.append(f"{where}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")
    except RecursionError:
        problems.append(f"{where}: not read: the JSON nests too deep")
    return None


def _skill_dir(start: Path) -> Path | None:
    for folder in [start, *start.parents][: _MAX_UP + 1]:
        if (folder / SKILL_FILE).is_file():
            return folder
    return None


def _is_trigger_set(data: Any) -> bool:
    return isinstance(data, list) and bool(data) and all(isinstance(q, dict) and "query" in q for q in data)


def _text(value: Any, where: str, key: str, problems: list[str]) -> str | None:
    if not isinstance(value, str) or not value.strip():
        problems.append(f"{where}: key {key!r} must be a non-empty string, not {excerpt(value)}")
        return None
    return value


def _eval(raw: Any, where: str, root: Path, problems: list[str]) -> Eval | None:
    if not isinstance(raw, dict):
        problems.append(f"{where}: must be an object with id, prompt and expectations, not {excerpt(raw)}")
        return None
    n = len(problems)
    ident = raw.get("id")
    if isinstance(ident, bool) or not isinstance(ident, int | str) or str(ident).strip() == "":
        problems.append(f"{where}: key 'id' must be a number or a string, not {excerpt(ident)}")
    prompt = _text(raw.get("prompt"), where, "prompt", problems)
    expected = raw.get("expected_output")
    if expected is not None and not isinstance(expected, str):
        problems.append(f"{where}: key 'expected_output' must be a string, not {excerpt(expected)}")
    key = "expectations" if "expectations" in raw or "assertions" not in raw else "assertions"
    statements = raw.get(key, [])
    if not isinstance(statements, list) or not all(isinstance(e, str) and e.strip() for e in statements):
        problems.append(
            f"{where}: key {key!r} must be a list of statements (strings), not {excerpt(statements)}"
        )
        statements = []
    files = raw.get("files", [])
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        problems.append(f"{where}: key 'files' must be a list of paths (strings), not {excerpt(files)}")
        files = []
    for i, rel in enumerate(files):
        full = root / rel
        if not rel or PurePosixPath(rel).is_absolute() or ".." in PurePosixPath(rel).parts:
            problems.append(
                f"{where}: key 'files[{i}]' must be a path inside the skill's folder, not {rel!r}"
            )
        elif not full.exists():
            problems.append(f"{where}: key 'files[{i}]': {rel!r} does not exist in {root}")
        else:
            try:
                confined(full, root, f"{where}: key 'files[{i}]'")
            except CaseError as exc:
                problems += exc.problems
    name = raw.get("eval_name")
    if name is not None and not isinstance(name, str):
        problems.append(f"{where}: key 'eval_name' must be a string, not {excerpt(name)}")
        name = None
    if len(problems) > n or prompt is None:
        return None
    unread = tuple(k for k in raw if k not in (*EVAL_KEYS, "eval_name", key))
    return Eval(
        where=where,
        id=str(ident),
        prompt=prompt,
        expected_output=expected if isinstance(expected, str) and expected.strip() else None,
        files=tuple(files),
        expectations=tuple(statements),
        name=name or None,
        unread=unread,
        as_assertions=key == "assertions",
    )


def _triggers(data: Any, where: str, problems: list[str]) -> list[Trigger]:
    out: list[Trigger] = []
    for i, raw in enumerate(data):
        at = f"{where}: [{i}]"
        query = _text(raw.get("query"), at, "query", problems)
        fire = raw.get("should_trigger")
        if not isinstance(fire, bool):
            problems.append(f"{at}: key 'should_trigger' must be true or false, not {excerpt(fire)}")
        elif query is not None:
            out.append(Trigger(at, query, fire))
    queries = [t.query for t in out]
    for q in sorted({q for q in queries if queries.count(q) > 1}):
        if len({t.should_trigger for t in out if t.query == q}) > 1:
            problems.append(f"{where}: query {excerpt(q)} is given with should_trigger true and false")
    return out


def read_suite(path: Path, skill: Path | None = None, cwd: Path | None = None) -> SkillSuite:
    """The suite at `path`: a skill's folder, its evals/ folder, an evals.json, or a trigger set
    (the skill: the nearest folder at or above it holding SKILL.md, or `skill`). File names in
    messages are as `cwd` sees them."""
    cwd = cwd or Path.cwd()
    if not path.exists():
        raise CaseError(
            [f"{path}: no such file or folder (give the skill's folder, its evals/ or evals.json)"]
        )
    problems: list[str] = []
    start = path if path.is_dir() else path.parent
    skill_dir = skill if skill is not None else _skill_dir(start)
    if skill_dir is None or not (skill_dir / SKILL_FILE).is_file():
        raise CaseError(
            [
                f"{skill_dir or start}: no {SKILL_FILE} here or above (the skill the evals are for: "
                "give --skill DIR)"
            ]
        )
    if path.is_file():
        evals_dir, candidates = path.parent, [path]
    else:
        evals_dir = (
            path / "evals" if (path / "evals").is_dir() and not (path / EVALS_FILE).is_file() else path
        )
        candidates = sorted(evals_dir.glob("*.json"))
    evals_file: Path | None = None
    suite = SkillSuite(skill_dir=skill_dir, skill_name=skill_dir.name, evals_file=None)
    for file in candidates:
        where = shown_path(file, cwd)
        data = _json(file, where, skill_dir, problems)
        if data is None:
            continue
        if isinstance(data, dict) and "evals" in data:
            evals_file = file
            suite.evals_file = file
            name = data.get("skill_name")
            if _text(name, where, "skill_name", problems) is not None:
                suite.skill_name = str(name).strip()
            evals = data.get("evals")
            if not isinstance(evals, list):
                problems.append(f"{where}: key 'evals' must be a list of evals, not {excerpt(evals)}")
                continue
            for i, raw in enumerate(evals):
                found = _eval(raw, f"{where}: evals[{i}]", skill_dir, problems)
                if found is not None:
                    suite.evals.append(found)
            ids = [e.id for e in suite.evals]
            for dup in sorted({i for i in ids if ids.count(i) > 1}):
                problems.append(f"{where}: id {dup!r} is given to more than one eval (ids are unique)")
            unknown = sorted(str(k) for k in data if k not in ("skill_name", "evals"))
            suite.items += [
                Item(NOT_IMPORTED, f"{where}: key {k!r} is not skill-creator's; not read") for k in unknown
            ]
        elif _is_trigger_set(data):
            suite.triggers += _triggers(data, where, problems)
            suite.trigger_files.append(file)
        elif path.is_file():
            problems.append(
                f"{where}: neither skill-creator's evals.json ({{skill_name, evals: [...]}}) nor a trigger "
                "set ([{query, should_trigger}, ...])"
            )
    if not problems and evals_file is None and not suite.triggers:
        problems.append(
            f"{shown_path(evals_dir, cwd)}: no {EVALS_FILE} and no trigger set ([{{query, should_trigger}}]) "
            "(give the skill's folder, its evals/, or the file)"
        )
    if problems:
        raise CaseError(problems)
    where = shown_path(skill_dir / SKILL_FILE, cwd)
    meta, _, _ = front_matter(read_text(skill_dir / SKILL_FILE, where, skill_dir), where)
    declared = meta.get("name")
    named = declared.strip() if isinstance(declared, str) and declared.strip() else None
    if evals_file is None and named:
        suite.skill_name = named
    elif named and named != suite.skill_name:
        suite.items.append(Item(DIFFERS, f"skill_name {suite.skill_name!r} is not SKILL.md's name {named!r}"))
    if any(f.resolve().is_relative_to(skill_dir.resolve()) for f in candidates):
        suite.items.append(
            Item(
                DIFFERS,
                "the arm copies the skill's folder into each cell, its evals included (as skill-creator's "
                "runs had them): an agent that looks can read the expectations",
            )
        )
    return suite


# ------------------------------------------------------------------ mapping


def _eval_task(e: Eval, skill: str, seed: Mapping[str, bytes], axis: str) -> SkillTask:
    items: list[Item] = []
    task = task_id(f"{skill}_{e.name or e.id}")
    prompt = e.prompt.rstrip()
    if e.files:
        # skill-creator's executor is told the eval's input files with the task.
        prompt += "\n\nInput files: " + ", ".join(e.files)
    graders: list[dict[str, Any]] = []
    on_diff: list[str] = []
    for i, statement in enumerate(e.expectations, 1):
        grader: dict[str, Any] = {"name": f"expectation_{i}", "type": "llm", "criteria": statement.strip()}
        if NAMES_A_FILE.search(statement):
            grader["on"] = "diff"
            on_diff.append(grader["name"])
        if axis != "score":
            grader["axis"] = axis
        graders.append(grader)
    toml: dict[str, Any] = {"kind": "open"}
    if axis != "score" and graders:
        toml["axis"] = axis
    if graders:
        toml["graders"] = graders
        items.append(
            Item(
                DIFFERS,
                "skill-creator's grader read the transcript and the outputs together; here each expectation "
                "is judged on the reply"
                + (f", or on the diff where it names a file ({', '.join(on_diff)})" if on_diff else ""),
            )
        )
        items.append(
            Item(
                TODO,
                "prove each expectation on a reference that passes it and one that fails it "
                "(good/ref.toml, bad/ref.toml: reply, tool_calls, graders = {...})",
            )
        )
    else:
        items.append(Item(TODO, "no expectation: the task measures cost, time and turns only"))
    if e.as_assertions:
        items.append(
            Item(DIFFERS, "its statements are under 'assertions': read as skill-creator's expectations")
        )
    items += [Item(NOT_IMPORTED, f"key {k!r} is not skill-creator's schema; not read") for k in e.unread]
    files = {f"seed/{rel}": data for rel, data in seed.items()}
    text = f"{len(graders)} expectation(s) as llm graders" + (f", {len(seed)} file(s) seeded" if seed else "")
    return SkillTask(
        task=task,
        where=e.where,
        toml=toml,
        files={"prompt.md": (prompt + "\n").encode(), **files},
        items=items,
        summary=text,
        note=e.expected_output or "",
    )


def _trigger_task(t: Trigger, skill: str, n: int) -> SkillTask:
    toml = {
        "kind": "open",
        "expect_fire": t.should_trigger,
        "runs": TRIGGER_RUNS,
        "max_turns": TRIGGER_MAX_TURNS,
    }
    items = [
        Item(
            DIFFERS,
            f"skill-creator ran each query {TRIGGER_RUNS} times and counted it fired at half of them; here "
            "each cell counts, in the arm's trigger accuracy (fired where expected, fired where not)",
        )
    ]
    return SkillTask(
        task=task_id(f"{skill}_trigger_{n}"),
        where=t.where,
        toml=toml,
        files={"prompt.md": (t.query.strip() + "\n").encode()},
        items=items,
        summary=f"expect_fire = {'true' if t.should_trigger else 'false'}",
    )


def _arm(suite: SkillSuite, cwd: Path) -> tuple[tuple[str, str], list[Item]]:
    """The skill as an arm: a plugin's skill is its plugin, any other skill its folder."""
    name = arm_name([suite.skill_name])
    parent = suite.skill_dir.resolve().parent
    if parent.name == "skills" and (parent.parent / MANIFEST).is_file():
        return (name, f"plugin:{shown_path(parent.parent, cwd)}"), [
            Item(
                DIFFERS,
                f"the skill is one of a plugin's ({parent.parent.name}): the arm loads the whole plugin",
            )
        ]
    return (name, f"skills:{shown_path(suite.skill_dir, cwd)}"), []


def _imported_md(t: SkillTask, suite: SkillSuite, cwd: Path) -> str:
    lines = [
        "# Imported from skill-creator",
        "",
        f"From `{t.where}`, for the skill `{suite.skill_name}` ({shown_path(suite.skill_dir, cwd)}).",
    ]
    if t.note:
        lines += ["", "Expected output (skill-creator's note):", "", t.note.strip()]
    for kind in KINDS:
        mine = [i.text for i in t.items if i.kind == kind]
        if mine:
            lines += ["", f"## {LABELS[kind]}", "", *(f"- [ ] {m}" for m in mine)]
    return "\n".join(lines) + "\n"


_REF_NOTE = {
    "good": "Imported from skill-creator, which has no references. Declare what a session that meets every "
    "expectation says and does: reply (or reply_file), tool_calls, and graders = { name = true }.",
    "bad": "Imported from skill-creator, which has no references. Declare what a session that misses an "
    "expectation says and does: reply, tool_calls, and graders = { name = false }.",
}


def import_skill_suite(
    path: Path, tasks_dir: Path, *, skill: Path | None = None, axis: str = "score", cwd: Path | None = None
) -> SkillImport:
    """Read the suite at `path` and write its task folders under `tasks_dir` (an existing folder is
    left alone). CaseError lists every problem of the input; nothing is written then."""
    if axis not in AXES:
        raise ValueError(f"axis {axis!r}; expected one of {', '.join(AXES)}")
    cwd = cwd or Path.cwd()
    suite = read_suite(path, skill, cwd)
    problems: list[str] = []
    tasks: list[SkillTask] = []
    for e in suite.evals:
        seed: dict[str, bytes] = {}
        for rel in e.files:
            full = suite.skill_dir / rel
            if full.is_file() and full.stat().st_size > MAX_SEED_BYTES:
                problems.append(f"{e.where}: {rel!r} is over {MAX_SEED_BYTES // 2**20} MB, too big to seed")
                continue
            got = read_files(full, rel, problems, []) if full.is_dir() else {"": full.read_bytes()}
            seed.update({(f"{rel}/{k}" if k else rel): v for k, v in got.items()})
        tasks.append(_eval_task(e, suite.skill_name, seed, axis))
    tasks += [_trigger_task(t, suite.skill_name, n) for n, t in enumerate(suite.triggers, 1)]
    seen: dict[str, str] = {}
    for t in tasks:
        if t.task in seen:
            problems.append(f"{t.where}: it is task {t.task}, as is {seen[t.task]}: give it another id")
        seen[t.task] = t.where
    if problems:
        raise CaseError(problems)
    arm, arm_items = _arm(suite, cwd)
    suite.items += arm_items
    for t in tasks:
        target = tasks_dir / t.task
        if target.exists():
            t.existed = True
            continue
        files = {
            "task.toml": t.task_toml(f"skill-creator: {t.where}"),
            "IMPORTED.md": _imported_md(t, suite, cwd).encode(),
            **t.files,
            **t.ref_tomls(_REF_NOTE),
        }
        try:
            write_folder(target, files)
        except OSError as exc:  # a full disk, a read-only folder: named, not a traceback
            raise PonybenchError(f"{target}: cannot be written: {exc.strerror or exc}") from None
    return SkillImport(suite, tasks_dir, tasks, arm)


# ------------------------------------------------------------------ what the command prints


def render(done: SkillImport, cwd: Path | None = None) -> str:
    cwd = cwd or Path.cwd()
    suite = done.suite
    sources = [f for f in (suite.evals_file, *suite.trigger_files) if f is not None]
    lines = [
        f"import-skill-creator: {len(suite.evals)} eval(s) and {len(suite.triggers)} trigger query(ies) of "
        f"the skill {suite.skill_name} ({', '.join(shown_path(f, cwd) for f in sources)}) into "
        f"{shown_path(done.tasks_dir, cwd)}/"
    ]
    width = max(len(t.task) for t in done.tasks) if done.tasks else 0
    for t in done.tasks:
        verb, state = ("kept", "exists, left alone") if t.existed else ("wrote", t.summary)
        lines.append(f"  {verb:7} {t.task:<{width}}  {state}  ({t.where})")
    name, spec = done.arm
    lines += arm_lines({name: spec})
    lines += next_lines(done.tasks_dir, [t.task for t in done.tasks if not t.existed], [], cwd)
    lines += checklist_lines([(t.task, t.items) for t in done.tasks if not t.existed], suite.items)
    return "\n".join(lines)
