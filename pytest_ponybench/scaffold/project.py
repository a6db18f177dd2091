"""`ponybench init [DIR]`: a repository opted in to benchmarking, with nothing of it overwritten.

What makes `pytest benchmarks` a benchmark run is the `[tool.ponybench]` table of the root's
pyproject.toml (`roles/config.requested_mode`); init appends one (or writes a pyproject.toml
holding only it), with an arm for each Claude Code plugin it finds (`.claude-plugin/plugin.json`
at the root, else one or two folders down) or, with none, an example prompt arm. It writes the
root `conftest.py` (the project's hooks, as examples), the cell module and four starter tasks,
one of each kind, whose references prove them at once. `--with-suite` also copies the shipped
suite, its fixtures and the example plugin in, for editing. Every path that exists is left as it
is and reported, so a second run changes nothing and says so.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_ponybench._util.paths import EXAMPLES, SUITE, SUITE_FIXTURES, SUITE_TASKS
from pytest_ponybench.core.tasks import task_folders
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.scaffold.files import APPENDED, EXISTS, WROTE, Step, copy_new_tree, write_new

__all__ = [
    "CONFTEST",
    "MANIFEST",
    "MAX_PLUGIN_ARMS",
    "PROMPT_ARM",
    "STARTERS",
    "InitResult",
    "Plugin",
    "find_plugins",
    "init_project",
    "pyproject_block",
    "render_init",
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
_ARM_NAME = re.compile(r"[^A-Za-z0-9_.]")
_SCAN_SKIP = {"node_modules", "runs", "venv", "site-packages"}

CONFTEST = '''"""This project's extension point for pytest-ponybench (written by `ponybench init`).

`[tool.ponybench]` in pyproject.toml makes `pytest benchmarks ...` a benchmark run; this file is
where the project adds to it, by implementing the hooks in pytest_ponybench/hooks.py (README
"Extending"). Both hooks below are examples: uncomment one to use it.
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
    name: str  # its manifest's name
    arm: str  # the arm's name: the plugin's name in the characters arm names allow


@dataclass(frozen=True)
class InitResult:
    root: Path
    steps: tuple[Step, ...]
    plugins: tuple[Plugin, ...]  # the arms written (empty: the example prompt arm, or no block)
    notes: tuple[str, ...]  # what init found and did not use, in words
    bench: str  # the benchmark folder, relative to root (what `pytest` is pointed at)

    @property
    def changed(self) -> bool:
        return any(s.action != EXISTS for s in self.steps)


def _toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def _manifest_name(manifest: Path) -> str | None:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
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
        name = _manifest_name(manifest)
        if name is None:
            notes.append(f'{manifest.relative_to(root)} is not JSON with a "name": no arm for it')
            continue
        if len(plugins) == MAX_PLUGIN_ARMS:
            notes.append(
                f"plugin {name} in {rel}: not made an arm (at most {MAX_PLUGIN_ARMS}; add it by hand)"
            )
            continue
        arm = _ARM_NAME.sub("_", name.strip()) or "plugin"
        base, n = arm, 2
        while arm in taken:
            arm, n = f"{base}_{n}", n + 1
        taken.add(arm)
        plugins.append(Plugin(rel, name, arm))
    return plugins, notes


def pyproject_block(plugins: list[Plugin], tasks: str = _DEFAULT_TASKS) -> str:
    """The `[tool.ponybench]` block init writes: where things are, and the arms."""
    bench = Path(tasks).parent.as_posix()
    lines = [
        f"# pytest-ponybench: `pytest {bench} ...` runs the tasks below, each arm against the baseline",
        '# (nothing added). Written by `ponybench init`; README "Arms" and "Options".',
        "[tool.ponybench]",
        f"tasks = {_toml_string(tasks)}",
        f"fixtures = {_toml_string(_DEFAULT_FIXTURES)}    # the repositories that fixture tasks copy",
        'out = "runs"             # a folder per run: records, workspaces, report.html',
        "",
        "[tool.ponybench.arms]",
    ]
    if plugins:
        for p in plugins:
            lines.append(f"# the plugin {p.name} ({(Path(p.path) / MANIFEST).as_posix()})")
            lines.append(f"{_toml_string(p.arm)} = {{ plugin = {_toml_string(p.path)} }}")
    else:
        lines += [
            f"# No {MANIFEST.as_posix()} was found here, so this example arm appends a prompt. A plugin:",
            '# mine = { plugin = "path/to/plugin" }; settings: concise = { settings = "settings.json" }',
            f"careful = {{ prompt = {_toml_string(PROMPT_ARM)} }}",
        ]
    return "\n".join(lines) + "\n"


def _read_pyproject(path: Path) -> tuple[str | None, dict[str, Any] | None]:
    """(its text, its [tool.ponybench] or None when it has none); (None, None) without a file.
    Invalid TOML is an error, raised before anything is written."""
    if not path.is_file():
        return None, None
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PonybenchError(f"{path}: cannot be read as TOML ({exc}); nothing was written") from None
    tool = data.get("tool")
    if not isinstance(tool, dict) or "ponybench" not in tool:
        return text, None
    table = tool["ponybench"]
    return text, table if isinstance(table, dict) else {}  # not a table: the plan names that error


def _folder_key(table: dict[str, Any], key: str, default: str) -> str:
    value = table.get(key, default)
    return value if isinstance(value, str) and value.strip() else default


def _pyproject_step(root: Path, text: str | None, has_table: bool, block: str) -> Step:
    path = root / "pyproject.toml"
    what = "[tool.ponybench]: where the tasks are, and the arms"
    if has_table:
        return Step("pyproject.toml", EXISTS, "it has [tool.ponybench]: left as it is")
    if text is None:
        head = "# This file holds only pytest-ponybench's settings (`ponybench init` wrote it).\n\n"
        return write_new(path, head + block, "pyproject.toml", what)
    sep = "\n" if text.endswith("\n") else "\n\n"
    try:
        tomllib.loads(text + sep + block)
    except tomllib.TOMLDecodeError as exc:  # e.g. a [tool] table that already holds ponybench keys
        raise PonybenchError(
            f"{path}: [tool.ponybench] cannot be appended to it ({exc}); nothing more was written"
        ) from None
    try:
        with path.open("a", encoding="utf-8") as fh:  # the file's own text stays byte for byte
            fh.write(sep + block)
    except OSError as exc:
        raise PonybenchError(f"{path}: cannot be written: {exc.strerror or exc}") from None
    return Step("pyproject.toml", APPENDED, what)


def _suite_steps(root: Path, tasks: str, fixtures: str) -> list[Step]:
    steps = [
        copy_new_tree(folder, root / tasks / folder.name, f"{tasks}/{folder.name}", "shipped suite: task")
        for folder in task_folders(SUITE_TASKS)
    ]
    steps += [
        copy_new_tree(repo, root / fixtures / repo.name, f"{fixtures}/{repo.name}", "shipped suite: fixture")
        for repo in sorted(p for p in SUITE_FIXTURES.iterdir() if p.is_dir())
    ]
    plugin = "examples/careful-plugin"
    steps.append(copy_new_tree(EXAMPLES / "careful-plugin", root / plugin, plugin, "the example plugin"))
    return steps


def init_project(root: Path, *, with_suite: bool = False) -> InitResult:
    """Opt root in: conftest.py, the cell module, the starter tasks, [tool.ponybench] (and with
    with_suite the shipped suite); nothing that exists is changed."""
    if not root.exists():
        raise PonybenchError(f"ponybench init: {root} does not exist (give a folder, or create it first)")
    if not root.is_dir():
        raise PonybenchError(f"ponybench init: {root} is not a folder")
    root = root.resolve()
    text, table = _read_pyproject(root / "pyproject.toml")
    tasks = _folder_key(table or {}, "tasks", _DEFAULT_TASKS)
    fixtures = _folder_key(table or {}, "fixtures", _DEFAULT_FIXTURES)
    bench = Path(tasks).parent.as_posix()
    plugins, notes = ([], []) if table is not None else find_plugins(root)
    steps = [
        write_new(root / "conftest.py", CONFTEST, "conftest.py", "the project's hooks, as examples"),
        write_new(
            root / bench / "test_cells.py",
            (SUITE / "test_cells.py").read_text(encoding="utf-8"),
            f"{bench}/test_cells.py",
            "the cell module: one test per (task, arm, model, run)",
        ),
    ]
    steps += [
        copy_new_tree(STARTER_DIR / task, root / tasks / task, f"{tasks}/{task}", what)
        for task, what in STARTERS.items()
    ]
    if with_suite:
        steps += _suite_steps(root, tasks, fixtures)
    steps.append(_pyproject_step(root, text, table is not None, pyproject_block(plugins, tasks)))
    return InitResult(root, tuple(steps), tuple(plugins), tuple(notes), bench)


def _runs_ignored(root: Path) -> bool:
    try:
        lines = (root / ".gitignore").read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    return any(line.strip().strip("/") == "runs" for line in lines)


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
        "  pytest --selftest-only -n 2",
        "      # every task's references scored as declared: no claude, no API",
        f"  pytest {bench} -n 2 --models offline-reference,offline-flawed",
        "      # the whole pipeline on the offline models, with every arm: no account, no network",
        f"  pytest {bench} -n 2 --models sonnet --runs 3 --dry-run",
        "      # the grid, the pre-flight and the price of a live A/B: nothing spent",
        f"  pytest {bench} -n 2 --models sonnet --runs 3",
        "      # the live A/B (ANTHROPIC_API_KEY, or a logged-in claude); the verdict ends the summary",
    ]
    if not _runs_ignored(result.root):
        out.append("  (add runs/ to .gitignore: each run writes a folder there)")
    return "\n".join(out)
