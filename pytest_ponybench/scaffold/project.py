"""`ponybench init [DIR]`: a repository opted in to benchmarking, with nothing of it overwritten.

What makes `pytest benchmarks` a benchmark run is the `[tool.ponybench]` table of the root's
pyproject.toml (`roles/settings.requested_mode`); init appends one (or writes a pyproject.toml
holding only it), with an arm for each Claude Code plugin it finds (`.claude-plugin/plugin.json`
at the root, else one or two folders down) or, with none, an example prompt arm. It writes the
root `conftest.py` (the project's hooks, as examples), the cell module and four starter tasks,
one of each kind, whose references prove them at once, and adds the out folder (`/runs/`) and
`__pycache__/` to the root's `.gitignore` (made when missing), so runs never make the checkout
dirty.
`--with-suite` also copies the shipped suite, its fixtures and the example plugin in, for
editing. Every path that exists is left as it is and reported, so a second run changes nothing
and says so. An eval suite the repository already has (a `claude plugin eval` one, or
skill-creator's `evals/evals.json` beside a SKILL.md) is found and its import command printed
first among the next steps; nothing of it is read more.

What a manifest says is someone else's text: a plugin's name only ever reaches a comment,
cleaned to one printable line, and every TOML string is escaped. The pyproject.toml as it would
be written is read back before anything is written, and must hold the old document and exactly
the block meant; a pyproject.toml that is a link, and any folder written into whose real path
lies outside the repository, are refused, so init never writes through a link.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import tomllib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_ponybench._util.paths import EXAMPLES, SUITE, SUITE_FIXTURES, SUITE_TASKS
from pytest_ponybench.core.names import MAX_NAME_CHARS
from pytest_ponybench.core.tasks import SHARED_CHECKS_DIR, task_folders
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.scaffold.files import (
    APPENDED,
    EXISTS,
    WROTE,
    LineStep,
    Step,
    add_lines,
    append,
    copy_new_tree,
    inside_root,
    line_step,
    write_new,
)

__all__ = [
    "CONFTEST",
    "IGNORE_COMMENT",
    "PYCACHE_RULE",
    "MANIFEST",
    "MAX_PLUGIN_ARMS",
    "PROMPT_ARM",
    "STARTERS",
    "InitResult",
    "Plugin",
    "Suite",
    "find_plugins",
    "find_suites",
    "init_project",
    "pyproject_block",
    "render_init",
    "shown_text",
    "block_table",
]

MANIFEST = Path(".claude-plugin") / "plugin.json"
MAX_PLUGIN_ARMS = 3  # a marketplace of many plugins gets the first three; the rest are listed
STARTER_DIR = EXAMPLES / "starter-tasks"
# The starter tasks, one of each kind, and what each shows.
STARTERS = {
    "starter_checks": "hidden checks: a file the agent writes, judged by pytest checks it never sees",
    "starter_reply": "reply graders: an answer in chat, judged by regexes over the reply",
    "starter_tools": "tool path: the calls the agent made, in order, judged beside the checks",
    "starter_judge": "a judge: an answer judged by a model on written criteria",
}
PROMPT_ARM = "Before you finish, check every input the code accepts and every way it can fail."
_DEFAULT_TASKS = "benchmarks/tasks"
_DEFAULT_FIXTURES = "fixtures"
_DEFAULT_OUT = "runs"
IGNORE_COMMENT = "# pytest-ponybench: the runs (a folder each) and the bytecode of conftest.py and the cells"
PYCACHE_RULE = "__pycache__/"
_ARM_NAME = re.compile(r"[^A-Za-z0-9_.]")
_SHOWN_CHARS = 80  # a manifest's name or path as a comment or a note shows it
_SCAN_SKIP = {"node_modules", "runs", "venv", "site-packages"}
_SUITE_DEPTH = 4  # how deep below the root an evals/ folder is looked for
_CASE_FILES = ("case.yaml", "prompt.md")  # a claude plugin eval case folder holds one

CONFTEST = '''"""This project's extension point for pytest-ponybench (written by `ponybench init`).

`[tool.ponybench]` in pyproject.toml makes `pytest benchmarks ...` a benchmark run; this file is
where the project adds to it, by implementing the hooks in pytest_ponybench/hooks.py
(docs/extending.md). Both hooks below are examples: uncomment one to use it.
"""

# def pytest_ponybench_record(cell, record, cell_dir):
#     """Extra metrics for one finished cell, merged into its record's `extra`."""
#     wrote = cell_dir / "workspace"  # what the agent left: read it, never import or run it
#     return {"todo_lines": sum(p.read_text(errors="replace").count("TODO") for p in wrote.rglob("*.py"))}


# def pytest_ponybench_arms(config):
#     """More arms, in the --arm form (NAME=plugin:PATH, NAME=prompt:TEXT, ...)."""
#     return ["terse=prompt:Answer in as few lines as you can."]
'''


@dataclass(frozen=True)
class Plugin:
    """A Claude Code plugin found in the project, and the arm that loads it."""

    path: str  # relative to the project, POSIX ("." for the root)
    name: str  # its manifest's name, as shown: one printable line (`shown_text`)
    arm: str  # the arm's name: the plugin's name in the characters arm names allow


@dataclass(frozen=True)
class Suite:
    """An eval suite of another tool found in the repository, and the command that imports it."""

    what: str  # in words: "a claude plugin eval suite (3 cases)"
    command: str


@dataclass(frozen=True)
class InitResult:
    root: Path
    steps: tuple[Step, ...]
    plugins: tuple[Plugin, ...]  # the arms written (empty: the example prompt arm, or no block)
    notes: tuple[str, ...]  # what init found and did not use, in words
    bench: str  # the benchmark folder, relative to root (what `pytest` is pointed at)
    suites: tuple[Suite, ...] = ()  # eval suites found, to import

    @property
    def changed(self) -> bool:
        return any(s.action != EXISTS for s in self.steps)


def _toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and every control character escaped (JSON's
    escapes are TOML's, but JSON leaves DEL raw, which TOML refuses)."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04X}")
        elif 0xD800 <= ord(c) <= 0xDFFF:  # a file name's undecodable byte: TOML has no form for it
            raise ValueError(f"{c!r} cannot be written in TOML")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _printable(text: str) -> bool:
    return all(c.isprintable() and unicodedata.category(c) not in ("Cs", "Cf") for c in text)


def shown_text(text: str, limit: int = _SHOWN_CHARS) -> str:
    """Someone else's text as a comment or a message shows it: one line of printable
    characters (a line break, a control or format character, a lone surrogate: a space),
    cut at `limit`."""
    clean = "".join(c if _printable(c) else " " for c in text[: limit + 1])
    clean = " ".join(clean.split())
    return clean if len(clean) <= limit else clean[:limit] + "..."


def _manifest_name(manifest: Path) -> str | None:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep
        return None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name.strip() else None


def _candidates(root: Path) -> list[Path]:
    """Manifests at the root, else one and two folders down (hidden and vendored folders skipped)."""
    if (root / MANIFEST).is_file():
        return [root / MANIFEST]
    found = []
    for pattern in ("*/" + MANIFEST.as_posix(), "*/*/" + MANIFEST.as_posix()):
        for manifest in sorted(root.glob(pattern)):
            parts = manifest.relative_to(root).parts[:-2]
            if not any(p.startswith(".") or p in _SCAN_SKIP for p in parts):
                found.append(manifest)
    return found


def find_plugins(root: Path) -> tuple[list[Plugin], list[str]]:
    """The plugins under root (at most MAX_PLUGIN_ARMS), and notes on manifests left out."""
    plugins: list[Plugin] = []
    notes: list[str] = []
    taken = {"baseline"}
    for manifest in _candidates(root):
        folder = manifest.parent.parent
        rel = folder.relative_to(root).as_posix()
        raw = _manifest_name(manifest)
        if raw is None:
            notes.append(
                f'{shown_text(str(manifest.relative_to(root)))} is not JSON with a "name": no arm for it'
            )
            continue
        name = shown_text(raw)
        if not _printable(rel):
            notes.append(
                f"plugin {name} in {shown_text(rel)}: not made an arm (its folder's name is not plain text)"
            )
            continue
        if len(plugins) == MAX_PLUGIN_ARMS:
            notes.append(
                f"plugin {name} in {rel}: not made an arm (at most {MAX_PLUGIN_ARMS}; add it by hand)"
            )
            continue
        arm = _ARM_NAME.sub("_", raw.strip())[:MAX_NAME_CHARS]
        arm = arm if arm.strip(".") else "plugin"  # never `.` or `..`
        base, n = arm, 2
        while arm in taken:
            arm, n = f"{base}_{n}", n + 1
        taken.add(arm)
        plugins.append(Plugin(rel, name, arm))
    return plugins, notes


def _evals_folders(root: Path) -> list[Path]:
    """Every `evals` folder up to _SUITE_DEPTH below root (hidden, vendored and run folders
    skipped, links not followed), in order."""
    found: list[Path] = []
    for top, dirs, _ in os.walk(root):
        depth = len(Path(top).relative_to(root).parts)
        dirs[:] = sorted(
            d for d in dirs if not d.startswith(".") and d not in _SCAN_SKIP and depth < _SUITE_DEPTH
        )
        found += [Path(top) / d for d in dirs if d == "evals"]
    return found


def _cases(evals: Path) -> int:
    """How many claude plugin eval case folders (case.yaml or prompt.md) the folder holds."""
    n = 0
    for _top, dirs, files in os.walk(evals):
        if any(f in _CASE_FILES for f in files):
            n += 1
            dirs[:] = []  # a case's own folders are not cases
        else:
            dirs[:] = [
                d for d in dirs if not d.startswith(".") and d not in ("results", "mocks", "node_modules")
            ]
    return n


def find_suites(root: Path, tasks: str = _DEFAULT_TASKS) -> list[Suite]:
    """The eval suites in the repository: skill-creator's (an evals/ beside a SKILL.md, holding
    evals.json or a trigger set) and claude plugin eval's (an evals/ of case folders)."""
    out = "" if tasks == _DEFAULT_TASKS else f" -o {shlex.quote(tasks)}"
    suites: list[Suite] = []
    for evals in _evals_folders(root):
        rel = evals.relative_to(root).as_posix()
        if not _printable(rel):
            continue
        skill = evals.parent
        triggers = [p for p in evals.glob("*.json") if "trigger" in p.name.lower()]
        if (skill / "SKILL.md").is_file() and ((evals / "evals.json").is_file() or triggers):
            shown = skill.relative_to(root).as_posix() or "."
            files = ", ".join(p.name for p in [evals / "evals.json", *triggers] if p.is_file())
            suites.append(
                Suite(
                    f"skill-creator evals of the skill in {shown} ({files})",
                    f"ponybench import-skill-creator {shlex.quote(shown)}{out}",
                )
            )
        elif n := _cases(evals):
            suites.append(
                Suite(
                    f"a claude plugin eval suite ({n} case(s))",
                    f"ponybench import-cpe {shlex.quote(rel)}{out}",
                )
            )
    return suites


def block_table(plugins: list[Plugin], tasks: str = _DEFAULT_TASKS) -> dict[str, Any]:
    """What `pyproject_block` must read back as: its [tool.ponybench] table."""
    arms: dict[str, Any] = {p.arm: {"plugin": p.path} for p in plugins}
    if not plugins:
        arms = {"careful": {"prompt": PROMPT_ARM}}
    return {"tasks": tasks, "fixtures": _DEFAULT_FIXTURES, "out": _DEFAULT_OUT, "arms": arms}


def pyproject_block(plugins: list[Plugin], tasks: str = _DEFAULT_TASKS) -> str:
    """The `[tool.ponybench]` block init writes: where things are, and the arms."""
    bench = Path(tasks).parent.as_posix()
    lines = [
        f"# pytest-ponybench: `pytest {bench} ...` runs the tasks below, each arm against the baseline",
        "# (nothing added). Written by `ponybench init`; docs/arms.md and docs/options.md.",
        "[tool.ponybench]",
        f"tasks = {_toml_string(tasks)}",
        f"fixtures = {_toml_string(_DEFAULT_FIXTURES)}    # the repositories that fixture tasks copy",
        'out = "runs"             # a folder per run: records, workspaces, report.html',
        "",
        "[tool.ponybench.arms]",
    ]
    if plugins:
        for p in plugins:
            where = shown_text((Path(p.path) / MANIFEST).as_posix())
            lines.append(f"# the plugin {shown_text(p.name)} ({where})")
            lines.append(f"{_toml_string(p.arm)} = {{ plugin = {_toml_string(p.path)} }}")
    else:
        lines += [
            f"# No {MANIFEST.as_posix()} was found here, so this example arm appends a prompt. A plugin:",
            '# mine = { plugin = "path/to/plugin" }; settings: concise = { settings = "settings.json" }',
            f"careful = {{ prompt = {_toml_string(PROMPT_ARM)} }}",
        ]
    return "\n".join(lines) + "\n"


def _read_pyproject(path: Path) -> tuple[str | None, dict[str, Any] | None, dict[str, Any]]:
    """(its text, its [tool.ponybench] or None when it has none, the whole document); (None,
    None, {}) without a file. Invalid TOML is an error, raised before anything is written."""
    if not path.is_file():
        return None, None, {}
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, ValueError, RecursionError) as exc:  # ValueError: TOMLDecodeError, UnicodeDecodeError
        why = "it nests too deep" if isinstance(exc, RecursionError) else " ".join(str(exc).split())[:200]
        raise PonybenchError(f"{path}: cannot be read as TOML ({why}); nothing was written") from None
    tool = data.get("tool")
    if not isinstance(tool, dict) or "ponybench" not in tool:
        return text, None, data
    table = tool["ponybench"]
    return text, table if isinstance(table, dict) else {}, data  # not a table: the plan names that error


def _folder_key(table: dict[str, Any], key: str, default: str) -> str:
    value = table.get(key, default)
    return value if isinstance(value, str) and value.strip() else default


def _without_block(data: dict[str, Any]) -> dict[str, Any]:
    """The document as it was before the block: [tool.ponybench] taken out (and a [tool] that
    held nothing else)."""
    tool = data.get("tool")
    if not isinstance(tool, dict) or "ponybench" not in tool:
        return data
    rest = {k: v for k, v in tool.items() if k != "ponybench"}
    out = {k: v for k, v in data.items() if k != "tool"}
    return {**out, "tool": rest} if rest else out


def _pyproject_text(
    path: Path, text: str | None, old: dict[str, Any], block: str, meant: dict[str, Any]
) -> str:
    """What pyproject.toml will hold once init has written it, read back: the old document,
    byte for byte, then exactly the block meant. Anything else is refused, nothing written."""
    if text is None:
        new = "# This file holds only pytest-ponybench's settings (`ponybench init` wrote it).\n\n" + block
    else:
        new = text + ("\n" if text.endswith("\n") else "\n\n") + block
    try:
        data = tomllib.loads(new)
    except (ValueError, RecursionError) as exc:  # e.g. a [tool] table that already holds ponybench keys
        why = " ".join(str(exc).split())[:200]
        raise PonybenchError(
            f"{path}: [tool.ponybench] cannot be appended to it ({why}); nothing was written"
        ) from None
    tool = data.get("tool")
    got = tool.get("ponybench") if isinstance(tool, dict) else None
    if got != meant or _without_block(data) != old:
        raise PonybenchError(
            f"{path}: the [tool.ponybench] block init would write does not read back as the block "
            "meant (a plugin's name or path made it say something else?); nothing was written"
        )
    return new


def _ignore(root: Path, out: str) -> LineStep:
    """The root's .gitignore rules that keep what a run leaves out of git, so a run never makes
    the checkout dirty (run.json's git_dirty): the out folder (when it is inside the root) and
    the bytecode pytest writes of conftest.py and the cell module."""
    rel = Path(out)
    name = rel.as_posix().strip("/")
    rules: list[tuple[str, Callable[[str], bool]]] = []
    if not (rel.is_absolute() or ".." in rel.parts or name in ("", ".")):
        rules.append((f"/{name}/", lambda line: line.rstrip("*").strip("/") == name))
    rules.append((PYCACHE_RULE, lambda line: line.strip("/*") in ("__pycache__", "**/__pycache__")))
    said = ", ".join(line for line, _ in rules)
    return line_step(
        root / ".gitignore", ".gitignore", IGNORE_COMMENT, rules, f"{said}: what runs leave, out of git"
    )


def _suite_plan(tasks: str, fixtures: str) -> list[tuple[Path, str, str]]:
    plan = [(folder, f"{tasks}/{folder.name}", "shipped suite: task") for folder in task_folders(SUITE_TASKS)]
    shared = SUITE_TASKS / SHARED_CHECKS_DIR
    if shared.is_dir():  # the payload lists the tasks' shared_checks name: no task loads without it
        plan.append((shared, f"{tasks}/{SHARED_CHECKS_DIR}", "the shared check modules of the shipped tasks"))
    plan += [
        (repo, f"{fixtures}/{repo.name}", "shipped suite: fixture")
        for repo in sorted(p for p in SUITE_FIXTURES.iterdir() if p.is_dir())
    ]
    plan.append((EXAMPLES / "careful-plugin", "examples/careful-plugin", "the example plugin"))
    return plan


def init_project(root: Path, *, with_suite: bool = False) -> InitResult:
    """Opt root in: conftest.py, the cell module, the starter tasks, [tool.ponybench] (and with
    with_suite the shipped suite); nothing that exists is changed. Every check (the pyproject
    read back, every target inside the repository) is done before the first write."""
    if not root.exists():
        raise PonybenchError(f"ponybench init: {root} does not exist (give a folder, or create it first)")
    if not root.is_dir():
        raise PonybenchError(f"ponybench init: {root} is not a folder")
    root = root.resolve()
    pyproject = root / "pyproject.toml"
    # Its own real path too: one out of the repository would steer the rest with its tasks key.
    inside_root(root, pyproject, "pyproject.toml", itself=True)
    text, table, old = _read_pyproject(pyproject)
    tasks = _folder_key(table or {}, "tasks", _DEFAULT_TASKS)
    fixtures = _folder_key(table or {}, "fixtures", _DEFAULT_FIXTURES)
    ignore = _ignore(root, _folder_key(table or {}, "out", _DEFAULT_OUT))
    bench = Path(tasks).parent.as_posix()
    plugins, notes = ([], []) if table is not None else find_plugins(root)
    files = [
        (root / "conftest.py", CONFTEST, "conftest.py", "the project's hooks, as examples"),
        (
            root / bench / "test_cells.py",
            (SUITE / "test_cells.py").read_text(encoding="utf-8"),
            f"{bench}/test_cells.py",
            "the cell module: one test per (task, arm, model, run)",
        ),
    ]
    trees = [(STARTER_DIR / task, f"{tasks}/{task}", what) for task, what in STARTERS.items()]
    if with_suite:
        trees += _suite_plan(tasks, fixtures)
    for path, _, rel, _ in files:
        inside_root(root, path, rel)
    for _, rel, _ in trees:
        inside_root(root, root / rel, rel)
    new_text: str | None = None
    if table is None:
        if pyproject.is_symlink():  # dangling too: write_new would report it as there
            raise PonybenchError(
                f"{pyproject}: a link (to {os.path.realpath(pyproject)}); init does not append through "
                "a link: add [tool.ponybench] to the file itself. Nothing was written"
            )
        new_text = _pyproject_text(
            pyproject, text, old, pyproject_block(plugins, tasks), block_table(plugins, tasks)
        )
    steps = [write_new(path, body, rel, what) for path, body, rel, what in files]
    steps += [copy_new_tree(source, root / rel, rel, what) for source, rel, what in trees]
    what = "[tool.ponybench]: where the tasks are, and the arms"
    if new_text is None:
        steps.append(Step("pyproject.toml", EXISTS, "it has [tool.ponybench]: left as it is"))
    elif text is None:
        steps.append(write_new(pyproject, new_text, "pyproject.toml", what))
    else:
        append(pyproject, new_text[len(text) :])
        steps.append(Step("pyproject.toml", APPENDED, what))
    steps.append(add_lines(ignore))
    return InitResult(
        root, tuple(steps), tuple(plugins), tuple(notes), bench, tuple(find_suites(root, tasks))
    )


def render_init(result: InitResult, cwd: Path) -> str:
    """What init did, path by path, and the commands to run next."""
    out = [f"ponybench init: {result.root}"]
    suite = [s for s in result.steps if s.what.startswith("shipped suite")]
    for step in result.steps:
        if step not in suite:
            out.append(f"  {step.action:<9} {step.path}" + (f"  ({step.what})" if step.what else ""))
    for kind in ("task", "fixture"):
        mine = [s for s in suite if s.what.endswith(kind)]
        if mine:
            wrote = sum(s.action == WROTE for s in mine)
            out.append(
                f"  {'wrote' if wrote else EXISTS:<9} {wrote} {kind} folder(s) of the shipped suite"
                + (f", {len(mine) - wrote} already there (left as they are)" if wrote < len(mine) else "")
            )
    for p in result.plugins:
        out.append(f"  arm       {p.arm} = the plugin {p.name} in {p.path}")
    out += [f"  note      {n}" for n in result.notes]
    if not result.changed:
        out.append("Nothing was changed: everything init writes is already here.")
    cd = [] if result.root == cwd.resolve() else [f"cd {result.root}"]
    bench = result.bench
    out += [
        "Next:",
        *(f"  {c}" for c in cd),
        *(f"  {s.command}\n      # {s.what}, as task folders (docs/cpe.md)" for s in result.suites),
        "  pytest --selftest-only -n 2",
        "      # every task's references scored as declared: no claude, no API",
        f"  pytest {bench} -n 2 --models offline-reference,offline-flawed",
        "      # the whole pipeline on the offline models, with every arm: no account, no network",
        f"  pytest {bench} -n 2 --models sonnet --runs 3 --dry-run",
        "      # the grid, the pre-flight and the price of a live A/B: nothing spent",
        f"  pytest {bench} -n 2 --models sonnet --runs 3",
        "      # the live A/B (ANTHROPIC_API_KEY, or a logged-in claude); the verdict ends the summary",
    ]
    return "\n".join(out)
