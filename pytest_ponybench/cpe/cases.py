"""`claude plugin eval` suites as the CLI reads them: found, merged and checked, nothing mapped yet.

A case is a folder of the eval dir holding `case.yaml` or `prompt.md` (its subfolders are not
searched further). Two forms, which may be mixed:

- `case.yaml` (schema_version 1.x): name, description, tags, plugins, runs, expected_outcome,
  `context` (scaffold_script, history_file, add_dirs), `execution` (prompt, max_turns,
  timeout_seconds, model, allowed_tools, disallowed_tools, artifact_publish,
  growthbook_overrides, append_system_prompt, env) and `graders`;
- the prose form: `prompt.md`, whose body is the prompt and whose YAML front matter may set the
  top-level and execution keys above, and `graders/<name>.md`, one grader each, its front matter
  the grader's keys (`type` required) and its body the llm/baseline criteria or the regex
  pattern. A grader file without front matter is not a grader (the CLI skips it too).

With both, the prose wins key by key, `disallowed_tools` lists are joined and the prose graders
come after case.yaml's. The grader types: regex (target last_message | trace | files |
mock_calls | {source: file, path}; pattern; JS flags; match contains | not_contains | count:N),
tool_used (tool, input_match, min, max), tool_order (before, after: a tool or {tool,
input_match}), file_exists (path, exists), llm (criteria, focus as regex's target) and baseline
(baseline_file, criteria); each with weight and arm (with-only | both).

YAML is read as YAML 1.2 reads it (the CLI's parser): `yes`, `no`, `on`, `off` are strings, not
booleans, and a key given twice is an error. A file whose aliases would expand to more than
MAX_YAML_NODES values (a "billion laughs" of a few lines) or that nests deeper than
MAX_YAML_DEPTH is refused before anything is built of it. Every problem names the file and the key; keys the
CLI ignores (unknown keys of case.yaml) are kept in `Case.ignored` for the import's checklist.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench._util import yaml12
from pytest_ponybench._util.yaml12 import MAX_YAML_DEPTH, MAX_YAML_NODES
from pytest_ponybench.errors import PonybenchError, excerpt

__all__ = [
    "CASE_FILES",
    "COMMON_GRADER_KEYS",
    "CONTEXT_KEYS",
    "COUNT_RE",
    "Case",
    "CaseError",
    "DEFAULT_SCHEMA",
    "EXECUTION_KEYS",
    "GRADER_KEYS",
    "GRADER_TYPES",
    "EVAL_ENV",
    "Grader",
    "HostileSuite",
    "JS_FLAGS",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_YAML_DEPTH",
    "MAX_YAML_NODES",
    "PROSE_BODY_KEY",
    "PROSE_EXECUTION",
    "PROSE_TOP",
    "SCHEMA_MAJOR",
    "SKIP_DIRS",
    "TARGETS",
    "TODO_CRITERIA",
    "TODO_PROMPT",
    "TOP_KEYS",
    "confined",
    "find_cases",
    "front_matter",
    "load_case",
    "load_suite",
    "load_yaml",
    "read_text",
]

CASE_FILES = ("case.yaml", "prompt.md")
SCHEMA_MAJOR = 1
DEFAULT_SCHEMA = "1.1"
TOP_KEYS: tuple[str, ...] = ("schema_version", "name", "description", "tags", "plugins", "context")
TOP_KEYS += ("execution", "runs", "graders", "expected_outcome")
CONTEXT_KEYS = ("scaffold_script", "history_file", "add_dirs")
EXECUTION_KEYS: tuple[str, ...] = ("prompt", "max_turns", "timeout_seconds", "model", "allowed_tools")
EXECUTION_KEYS += ("disallowed_tools",)
EXECUTION_KEYS += ("artifact_publish", "growthbook_overrides", "append_system_prompt", "env")
# What prompt.md's front matter may set, as the CLI sorts it.
PROSE_TOP = ("schema_version", "name", "description", "tags", "plugins", "runs", "expected_outcome")
PROSE_EXECUTION = tuple(k for k in EXECUTION_KEYS if k != "prompt")
GRADER_TYPES = ("regex", "tool_order", "tool_used", "file_exists", "llm", "baseline")
COMMON_GRADER_KEYS = ("type", "name", "weight", "arm")
GRADER_KEYS: dict[str, tuple[str, ...]] = {
    "regex": ("target", "pattern", "flags", "match"),
    "tool_order": ("before", "after"),
    "tool_used": ("tool", "input_match", "min", "max"),
    "file_exists": ("path", "exists"),
    "llm": ("criteria", "focus"),
    "baseline": ("baseline_file", "criteria"),
}
PROSE_BODY_KEY = {"llm": "criteria", "baseline": "criteria", "regex": "pattern"}
TARGETS = ("trace", "last_message", "files", "mock_calls")
JS_FLAGS = "dgimsuvy"
COUNT_RE = re.compile(r"^count:(\d+)$")
# The only variables a case may set (any other fails every run of the case in the CLI).
EVAL_ENV = re.compile(r"^EVAL_[A-Z0-9_]*$")
# The blank `claude plugin eval init --bare` template, which the CLI refuses to run.
TODO_PROMPT = "TODO: describe what the agent should do"
TODO_CRITERIA = "TODO: describe what a successful response looks like"
MAX_FILE_BYTES = 1024 * 1024  # the CLI's cap on a case file
MAX_DEPTH = 16
SKIP_DIRS = ("node_modules", "results", "mocks")


class CaseError(PonybenchError):
    """One or more malformed cases; each problem names the file and the key."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class HostileSuite(CaseError):
    """A suite file no import reads, whatever else the suite holds: a link out of the suite,
    YAML made to exhaust memory or the stack. The whole suite is refused, never one case skipped."""


@dataclass(frozen=True)
class Grader:
    """One grader as declared: its type's keys, checked; `where` names its file."""

    name: str
    type: str
    weight: float
    arm: str | None  # with-only | both | None (the CLI's default)
    keys: Mapping[str, Any]
    where: str


@dataclass
class Case:
    """One case, its forms merged and checked against the CLI's schema."""

    dir: Path
    source: str  # case_yaml | prose | mixed
    where: str  # the case's main file, for messages
    schema_version: str
    name: str
    prompt: str
    description: str | None = None
    tags: tuple[str, ...] = ()
    plugins: tuple[str, ...] | None = None
    runs: int = 3
    expected_outcome: str | None = None
    scaffold_script: str | None = None
    history_file: str | None = None
    add_dirs: tuple[str, ...] = ()
    max_turns: int = 10
    timeout_seconds: int = 300
    model: str | None = None
    allowed_tools: tuple[str, ...] = ()
    disallowed_tools: tuple[str, ...] = ()
    artifact_publish: bool | None = None
    growthbook_overrides: Mapping[str, Any] | None = None
    append_system_prompt: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    graders: tuple[Grader, ...] = ()
    ignored: list[str] = field(default_factory=list)  # keys the CLI ignores, as "file: key"
    skipped_files: list[str] = field(default_factory=list)  # graders/*.md without front matter


# ------------------------------------------------------------------ YAML as the CLI reads it


def load_yaml(text: str, where: str) -> Any:
    """YAML as the CLI reads it (`_util.yaml12`); a problem names `where`, a document made to
    exhaust memory or the stack refuses the whole suite (`HostileSuite`)."""
    try:
        return yaml12.read(text)
    except yaml12.YamlProblem as exc:
        raise (HostileSuite if exc.hostile else CaseError)([f"{where}: {exc}"]) from None


def confined(path: Path, suite: Path, where: str) -> None:
    """Refuse a suite file whose real path lies outside the suite's folder: a link in a suite
    someone else wrote must not carry a file of this machine into the tasks (and the prompts)."""
    real, top = Path(os.path.realpath(path)), Path(os.path.realpath(suite))
    if real != top and top not in real.parents:
        raise HostileSuite(
            [f"{where}: a link to {real}, outside the suite ({top}): refused, nothing imported"]
        )


def read_text(path: Path, where: str, suite: Path | None = None) -> str:
    """A case file's text; with `suite`, only a file whose real path lies inside it."""
    if suite is not None:
        confined(path, suite, where)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise CaseError([f"{where}: over {MAX_FILE_BYTES} bytes (the CLI's cap)"])
        return path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise CaseError([f"{where}: not UTF-8 text: {exc}"]) from exc
    except OSError as exc:
        raise CaseError([f"{where}: cannot be read: {exc.strerror or exc}"]) from exc


def front_matter(text: str, where: str) -> tuple[dict[str, Any], str, bool]:
    """(front matter, body, whether there was front matter) of a prose file."""
    try:
        head, body = yaml12.split_front_matter(text)
    except yaml12.YamlProblem as exc:
        raise CaseError([f"{where}: {exc}"]) from None
    if head is None:
        return {}, text, False
    data = load_yaml(head, f"{where} (front matter)")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise CaseError([f"{where}: the front matter must be a YAML mapping (key: value lines)"])
    return data, body, True


# ------------------------------------------------------------------ discovery


def find_cases(evals_dir: Path) -> list[Path]:
    """Every case folder under evals_dir (or evals_dir itself when it is one), sorted."""
    found: list[Path] = []

    def walk(folder: Path, depth: int) -> None:
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            return
        if any(e.name in CASE_FILES and e.is_file() for e in entries):
            found.append(folder)
            return
        if depth >= MAX_DEPTH:
            return
        for entry in entries:
            if entry.is_dir() and not entry.is_symlink() and not entry.name.startswith("."):
                if entry.name not in SKIP_DIRS:
                    walk(entry, depth + 1)

    walk(evals_dir, 0)
    return found


# ------------------------------------------------------------------ checking


class _Check:
    """Typed getters over one case's merged keys; every problem names the file and the key."""

    def __init__(self, origin: Callable[[str], str]) -> None:
        self.origin = origin  # key path -> the file that gave it
        self.problems: list[str] = []

    def bad(self, key: str, msg: str) -> None:
        self.problems.append(f"{self.origin(key)}: key {key!r} {msg}")

    def text(self, data: Mapping[str, Any], name: str, key: str, *, required: bool = False) -> str | None:
        value = data.get(name)
        if value is None:
            if required:
                self.bad(key, "is missing")
            return None
        if not isinstance(value, str):
            self.bad(key, f"must be a string, not {_shown(value)}")
            return None
        return value

    def strings(self, data: Mapping[str, Any], name: str, key: str) -> tuple[str, ...] | None:
        value = data.get(name)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.bad(key, f"must be a list of strings, not {_shown(value)}")
            return None
        return tuple(value)

    def whole(self, data: Mapping[str, Any], name: str, key: str, default: int, hi: int) -> int:
        value = data.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= hi:
            self.bad(key, f"must be a whole number from 1 to {hi}, not {_shown(value)}")
            return default
        return value

    def unknown(self, data: Mapping[str, Any], known: tuple[str, ...], prefix: str) -> list[str]:
        return [
            f"{self.origin(prefix + str(k)[:80])}: key {excerpt(prefix + str(k)[:80])}"
            for k in data
            if k not in known
        ]


def _shown(value: Any) -> str:
    return excerpt(value)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _tool_ref(c: _Check, value: Any, key: str) -> dict[str, Any] | None:
    """tool_order's before/after: a tool name, or {tool, input_match}."""
    if isinstance(value, str):
        return {"tool": value}
    if isinstance(value, Mapping):
        extra = sorted(set(value) - {"tool", "input_match"})
        if extra:
            c.bad(f"{key}.{extra[0]}", "is not a key of a tool step (tool, input_match)")
            return None
        tool = c.text(value, "tool", f"{key}.tool", required=True)
        match = c.text(value, "input_match", f"{key}.input_match")
        if tool is None:
            return None
        return {"tool": tool, **({"input_match": match} if match is not None else {})}
    c.bad(key, f"must be a tool name or {{tool, input_match}}, not {_shown(value)}")
    return None


def _target(c: _Check, value: Any, key: str) -> Any:
    if value in TARGETS:
        return value
    if isinstance(value, Mapping) and value.get("source") == "file":
        extra = sorted(set(value) - {"source", "path"})
        if extra:
            c.bad(f"{key}.{extra[0]}", "is not a key of a file target (source, path)")
            return None
        path = c.text(value, "path", f"{key}.path", required=True)
        return {"source": "file", "path": path} if path is not None else None
    c.bad(key, f"must be one of {', '.join(TARGETS)} or {{source: file, path: ...}}, not {_shown(value)}")
    return None


def _grader(c: _Check, raw: Any, prefix: str, where: str) -> Grader | None:
    """One grader; `prefix` is its place in case.yaml (`graders[2].`), empty in graders/<name>.md."""
    if not isinstance(raw, Mapping):
        c.bad(prefix.rstrip("."), f"must be a mapping with a type, not {_shown(raw)}")
        return None
    kind = raw.get("type")
    if kind not in GRADER_TYPES:
        c.bad(f"{prefix}type", f"is {_shown(kind)}; expected one of {', '.join(GRADER_TYPES)}")
        return None
    known = COMMON_GRADER_KEYS + GRADER_KEYS[kind]
    extra = sorted(str(k) for k in raw if k not in known)
    if extra:
        c.bad(f"{prefix}{extra[0]}", f"is not a key of a {kind} grader (known: {', '.join(known)})")
    name = c.text(raw, "name", f"{prefix}name", required=True)
    weight = raw.get("weight", 1)
    if not _number(weight) or weight <= 0:
        c.bad(f"{prefix}weight", f"must be a number > 0, not {_shown(weight)}")
        weight = 1
    arm = raw.get("arm")
    if arm is not None and arm not in ("with-only", "both"):
        c.bad(f"{prefix}arm", f"must be with-only or both, not {_shown(arm)}")
        arm = None
    keys: dict[str, Any] = {}
    if kind == "regex":
        keys["target"] = _target(c, raw.get("target", "last_message"), f"{prefix}target")
        keys["pattern"] = c.text(raw, "pattern", f"{prefix}pattern", required=True)
        flags = raw.get("flags", "")
        if not isinstance(flags, str) or set(flags) - set(JS_FLAGS):
            c.bad(f"{prefix}flags", f"must be JS RegExp flags ({' '.join(JS_FLAGS)}), not {_shown(flags)}")
            flags = ""
        keys["flags"] = flags
        match = raw.get("match", "contains")
        if match not in ("contains", "not_contains") and not (
            isinstance(match, str) and COUNT_RE.fullmatch(match)
        ):
            c.bad(f"{prefix}match", f"must be contains | not_contains | count:N, not {_shown(match)}")
            match = "contains"
        keys["match"] = match
    elif kind == "tool_order":
        for side in ("before", "after"):
            if side not in raw:
                c.bad(f"{prefix}{side}", "is missing")
            else:
                keys[side] = _tool_ref(c, raw[side], f"{prefix}{side}")
    elif kind == "tool_used":
        keys["tool"] = c.text(raw, "tool", f"{prefix}tool", required=True)
        keys["input_match"] = c.text(raw, "input_match", f"{prefix}input_match")
        for bound in ("min", "max"):
            value = raw.get(bound)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                c.bad(f"{prefix}{bound}", f"must be a whole number >= 0, not {_shown(value)}")
                value = None
            keys[bound] = value
    elif kind == "file_exists":
        keys["path"] = c.text(raw, "path", f"{prefix}path", required=True)
        exists = raw.get("exists", True)
        if not isinstance(exists, bool):
            c.bad(f"{prefix}exists", f"must be true or false, not {_shown(exists)}")
            exists = True
        keys["exists"] = exists
    elif kind == "llm":
        keys["criteria"] = c.text(raw, "criteria", f"{prefix}criteria", required=True)
        keys["focus"] = _target(c, raw.get("focus", "last_message"), f"{prefix}focus")
    else:
        keys["baseline_file"] = c.text(raw, "baseline_file", f"{prefix}baseline_file", required=True)
        keys["criteria"] = c.text(raw, "criteria", f"{prefix}criteria", required=True)
    for text_key in ("criteria", "pattern"):
        if TODO_CRITERIA in (keys.get(text_key) or ""):
            c.bad(
                f"{prefix}{text_key}", "is still the blank `init` template: write the concrete pass criteria"
            )
    optional = ("input_match", "min", "max")
    if name is None or any(v is None for k, v in keys.items() if k not in optional):
        return None
    return Grader(name=name, type=kind, weight=float(weight), arm=arm, keys=keys, where=where)


def _prose(
    case_dir: Path, root: Path, suite: Path
) -> tuple[dict[str, Any], list[tuple[Any, str]], list[str], dict[str, str]]:
    """prompt.md and graders/*.md: (top and execution keys with the prompt, graders with their
    files, files skipped, key -> file)."""
    merged: dict[str, Any] = {}
    execution: dict[str, Any] = {}
    graders: list[tuple[Any, str]] = []
    skipped: list[str] = []
    origin: dict[str, str] = {}
    prompt_path = case_dir / "prompt.md"
    if prompt_path.is_file():
        where = _rel(prompt_path, root)
        data, body, _ = front_matter(read_text(prompt_path, where, suite), where)
        for key, value in data.items():
            if key in PROSE_TOP:
                merged[key] = value
                origin[key] = where
            elif key in PROSE_EXECUTION:
                execution[key] = value
                origin[f"execution.{key}"] = where
            else:
                known = ", ".join(PROSE_TOP + PROSE_EXECUTION)
                raise CaseError([f"{where}: key {excerpt(key)} is not a front-matter key (known: {known})"])
        if body.strip():
            execution["prompt"] = body.strip()
            origin["execution.prompt"] = where
    grader_dir = case_dir / "graders"
    if grader_dir.is_dir():
        for path in sorted(p for p in grader_dir.iterdir() if p.name.endswith(".md") and p.is_file()):
            where = _rel(path, root)
            data, body, had = front_matter(read_text(path, where, suite), where)
            if not had:
                skipped.append(where)
                continue
            if not isinstance(data.get("type"), str):
                raise CaseError(
                    [f"{where}: key 'type' is missing from the front matter ({' | '.join(GRADER_TYPES)})"]
                )
            grader = {"name": path.name[: -len(".md")], **data}
            body_key = PROSE_BODY_KEY.get(str(data["type"]))
            if body_key and grader.get(body_key) is None and body.strip():
                grader[body_key] = body.strip()
            graders.append((grader, where))
    elif grader_dir.exists():
        raise CaseError([f"{_rel(grader_dir, root)}: not a folder (graders/ holds one <name>.md per grader)"])
    if execution:
        merged["execution"] = execution
    return merged, graders, skipped, origin


def _fixed(where: str) -> Callable[[str], str]:
    """An origin for keys that all come from one file."""
    return lambda _key: where


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def load_case(case_dir: Path, root: Path, suite: Path | None = None) -> Case:
    """One case folder, its forms merged and checked; CaseError lists every problem in it.
    `root` is what file names in messages are relative to (the eval dir's parent); every file
    read must lie inside `suite` (the eval dir; the case folder when not given)."""
    suite = case_dir if suite is None else suite
    yaml_path = case_dir / "case.yaml"
    yaml_where = _rel(yaml_path, root)
    data: dict[str, Any] = {}
    if yaml_path.is_file():
        loaded = load_yaml(read_text(yaml_path, yaml_where, suite), yaml_where)
        if loaded is not None and not isinstance(loaded, dict):
            raise CaseError([f"{yaml_where}: must be a YAML mapping (key: value lines)"])
        data = loaded or {}
    prose, prose_graders, skipped, prose_origin = _prose(case_dir, root, suite)
    has_yaml = yaml_path.is_file()
    has_prose = bool(prose or prose_graders or (case_dir / "prompt.md").is_file())
    source = "mixed" if has_yaml and has_prose else "case_yaml" if has_yaml else "prose"
    if not has_yaml:
        data = {"schema_version": DEFAULT_SCHEMA, "name": case_dir.name}
    raw_execution = data.get("execution")
    execution: dict[str, Any] = raw_execution if isinstance(raw_execution, dict) else {}
    prose_exec: dict[str, Any] = prose.pop("execution", {})
    disallowed = execution.get("disallowed_tools")
    if (
        "disallowed_tools" in prose_exec
        and isinstance(disallowed, list)
        and isinstance(prose_exec["disallowed_tools"], list)
    ):
        prose_exec["disallowed_tools"] = disallowed + prose_exec["disallowed_tools"]
    merged = {**data, **prose}
    if "execution" in data and not isinstance(data["execution"], dict):
        merged["execution"] = data["execution"]  # reported below as not a mapping
    else:
        merged["execution"] = {**execution, **prose_exec}
    yaml_graders = data.get("graders")

    main_file = yaml_where if has_yaml else _rel(case_dir / "prompt.md", root)

    def origin(key: str) -> str:
        return prose_origin.get(key) or prose_origin.get(key.split(".")[0]) or main_file

    c = _Check(origin)
    ignored = c.unknown(merged, TOP_KEYS, "")
    version = merged.get("schema_version")
    if not isinstance(version, str):
        c.bad("schema_version", f'is missing or not a string (e.g. "1.0"), not {_shown(version)}')
    else:
        major = version.split(".")[0]
        if not major.isdigit():
            c.bad("schema_version", f"is {excerpt(version)}, not a version string")
        elif int(major) > SCHEMA_MAJOR:
            c.bad("schema_version", f"is {excerpt(version)}; this import reads schema {SCHEMA_MAJOR}.x")
    name = c.text(merged, "name", "name", required=True)
    if name is not None and not name:
        c.bad("name", "is empty")
    context = merged.get("context", {})
    if not isinstance(context, dict):
        c.bad("context", f"must be a mapping, not {_shown(context)}")
        context = {}
    ignored += c.unknown(context, CONTEXT_KEYS, "context.")
    ex = merged["execution"]
    if not isinstance(ex, dict):
        c.bad("execution", f"must be a mapping, not {_shown(ex)}")
        ex = {}
    ignored += c.unknown(ex, EXECUTION_KEYS, "execution.")
    prompt = c.text(ex, "prompt", "execution.prompt")
    if not (prompt or "").strip():
        c.problems.append(
            f"{origin('execution.prompt')}: key 'execution.prompt' is missing or empty "
            "(a prompt.md body, or execution.prompt in case.yaml)"
        )
    elif TODO_PROMPT in prompt:  # type: ignore[operator]
        c.bad("execution.prompt", "is still the blank `init` template: write the user prompt to test")
    env = ex.get("env", {})
    if not isinstance(env, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in env.items()
    ):
        c.bad("execution.env", f"must be a mapping of NAME: string, not {_shown(env)}")
        env = {}
    for var in env:
        if not EVAL_ENV.match(var):
            c.bad(
                "execution.env",
                f"sets {excerpt(var)}: only EVAL_* names may be set from a case (the CLI fails every "
                "run of this case, a setup error)",
            )
    overrides = ex.get("growthbook_overrides")
    if overrides is not None and not isinstance(overrides, dict):
        c.bad("execution.growthbook_overrides", f"must be a mapping, not {_shown(overrides)}")
    publish = ex.get("artifact_publish")
    if publish is not None and not isinstance(publish, bool):
        c.bad("execution.artifact_publish", f"must be true or false, not {_shown(publish)}")
    graders: list[Grader] = []
    raw_graders: list[tuple[Any, str, str]] = []
    if yaml_graders is not None:
        if not isinstance(yaml_graders, list):
            c.bad("graders", f"must be a list of graders, not {_shown(yaml_graders)}")
        else:
            raw_graders += [(g, f"graders[{i}].", yaml_where) for i, g in enumerate(yaml_graders)]
    raw_graders += [(g, "", where) for g, where in prose_graders]
    for raw, prefix, where in raw_graders:
        gc = _Check(_fixed(where))
        grader = _grader(gc, raw, prefix, where)
        c.problems += gc.problems
        if grader is not None:
            graders.append(grader)
    if not raw_graders:
        where = yaml_where if has_yaml else _rel(case_dir, root) + "/graders/"
        c.problems.append(f"{where}: no grader (a case needs one or more)")
    names = [g.name for g in graders]
    for dup in sorted({n for n in names if names.count(n) > 1}):
        where = next(g.where for g in graders if g.name == dup)
        c.problems.append(f"{where}: grader name {excerpt(dup)} is used twice (names are unique in a case)")
    case = Case(
        dir=case_dir,
        source=source,
        where=main_file,
        schema_version=str(version),
        name=name or case_dir.name,
        prompt=(prompt or "").strip(),
        description=c.text(merged, "description", "description"),
        tags=c.strings(merged, "tags", "tags") or (),
        plugins=c.strings(merged, "plugins", "plugins"),
        runs=c.whole(merged, "runs", "runs", 3, 50),
        expected_outcome=c.text(merged, "expected_outcome", "expected_outcome"),
        scaffold_script=c.text(context, "scaffold_script", "context.scaffold_script"),
        history_file=c.text(context, "history_file", "context.history_file"),
        add_dirs=c.strings(context, "add_dirs", "context.add_dirs") or (),
        max_turns=c.whole(ex, "max_turns", "execution.max_turns", 10, 200),
        timeout_seconds=c.whole(ex, "timeout_seconds", "execution.timeout_seconds", 300, 3600),
        model=c.text(ex, "model", "execution.model"),
        allowed_tools=c.strings(ex, "allowed_tools", "execution.allowed_tools") or (),
        disallowed_tools=c.strings(ex, "disallowed_tools", "execution.disallowed_tools") or (),
        artifact_publish=publish if isinstance(publish, bool) else None,
        growthbook_overrides=overrides if isinstance(overrides, dict) else None,
        append_system_prompt=c.text(ex, "append_system_prompt", "execution.append_system_prompt"),
        env=dict(env),
        graders=tuple(graders),
        ignored=ignored,
        skipped_files=skipped,
    )
    if c.problems:
        raise CaseError(c.problems)
    return case


def load_suite(evals_dir: Path) -> list[Case]:
    """Every case of the suite; CaseError lists the problems of all of them at once."""
    root = evals_dir.parent
    problems: list[str] = []
    cases: list[Case] = []
    for folder in find_cases(evals_dir):
        try:
            cases.append(load_case(folder, root, evals_dir))
        except CaseError as exc:
            problems += exc.problems
    if problems:
        raise CaseError(problems)
    return cases
