"""`ponybench import-cpe`: a `claude plugin eval` suite written out as ponybench task folders.

The steps, each complete before the next: read and check every case (cases.py; a malformed
suite is refused whole, every problem named); find what each case needs from disk (its plugin,
its add_dirs, a baseline grader's trajectory, and, only with `allow_scaffold`, the files its
scaffold_script makes); map it (mapping.py, pure); then write each task folder that does not
exist yet, built in a hidden folder beside it and renamed into place, so a folder is never
half-written and an existing one is never touched.

A task folder holds task.toml (`kind = "open"`: CPE cases have no hidden checks), prompt.md,
IMPORTED.md (where it came from and its checklist), seed/ (add_dirs, scaffold output),
references/ (a baseline grader's reference reply), and, when it has graders, good/ and bad/
with a ref.toml each to be filled in: graders are proven on references before a run trusts them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench.cpe import tomlw
from pytest_ponybench.cpe.cases import Case, CaseError, HostileSuite, find_cases, load_case
from pytest_ponybench.cpe.context import case_context
from pytest_ponybench.cpe.mapping import (
    DIFFERS,
    KINDS,
    LABELS,
    NEVER,
    NOT_IMPORTED,
    TODO,
    Draft,
    Item,
    Plugin,
    draft,
    imported_md,
)
from pytest_ponybench.cpe.names import BASELINE, arm_name
from pytest_ponybench.cpe.tools import cpe_offer
from pytest_ponybench.errors import PonybenchError

__all__ = [
    "DEFAULT_EVALS",
    "ImportResult",
    "MANIFEST",
    "MAX_SEED_BYTES",
    "MAX_SEED_FILES",
    "REF_NOTE",
    "SCAFFOLD_TIMEOUT_S",
    "Written",
    "add_dir_files",
    "arm_lines",
    "arms_of",
    "baseline_replies",
    "case_plugins",
    "checklist_lines",
    "final_reply",
    "folder_files",
    "import_suite",
    "locate",
    "nearest_plugin",
    "next_lines",
    "read_files",
    "render",
    "run_scaffold",
    "shown_path",
    "suite_items",
    "write_folder",
]

MANIFEST = Path(".claude-plugin") / "plugin.json"
DEFAULT_EVALS = "evals"
SCAFFOLD_TIMEOUT_S = 120.0  # what the CLI allows a scaffold_script
MAX_SEED_FILES = 5000
MAX_SEED_BYTES = 50 * 1024 * 1024
REF_NOTE = {
    "good": "Imported from claude plugin eval, which has no references. Declare what a session that "
    "passes every grader says and does: reply (or reply_file), tool_calls, and graders = { name = true }.",
    "bad": "Imported from claude plugin eval, which has no references. Declare what a session that fails "
    "a grader says and does: reply, tool_calls, and graders = { name = false }.",
}


@dataclass
class Written:
    draft: Draft
    folder: Path
    existed: bool  # left alone: the folder was already there


@dataclass
class ImportResult:
    evals_dir: Path
    tasks_dir: Path
    tasks: list[Written]
    suite_items: list[Item] = field(default_factory=list)
    arms: dict[str, tuple[Plugin, ...]] = field(default_factory=dict)
    results: list[Path] = field(default_factory=list)  # aggregate-result.json files found
    skipped: dict[str, list[str]] = field(default_factory=dict)  # case folder -> why CPE would not run it


def locate(path: Path) -> tuple[Path, Path | None]:
    """(the eval dir, the plugin it belongs to) for what the user named: an eval dir, one case,
    or a plugin's root (whose manifest may name its eval dir in `experimental.evals`)."""
    if not path.is_dir():
        raise CaseError([f"{path}: no such folder (give the eval dir, e.g. evals/, or the plugin's root)"])
    if (path / MANIFEST).is_file():
        manifest = _manifest(path)
        sub = (
            manifest.get("experimental", {}).get("evals")
            if isinstance(manifest.get("experimental"), dict)
            else None
        )
        evals = path / (sub if isinstance(sub, str) and sub else DEFAULT_EVALS)
        if not evals.is_dir():
            raise CaseError([f"{path}: a plugin without an eval dir ({evals} does not exist)"])
        return evals, path
    return path, None


def _manifest(plugin_dir: Path) -> dict[str, Any]:
    where = plugin_dir / MANIFEST
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:  # ValueError: not UTF-8, not JSON
        why = "it nests too deep" if isinstance(exc, RecursionError) else " ".join(str(exc).split())[:200]
        raise CaseError([f"{where}: not a readable plugin manifest: {why}"]) from None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str) or not data["name"]:
        raise CaseError([f"{where}: key 'name' is missing (a plugin manifest names its plugin)"])
    return data


def nearest_plugin(folder: Path) -> Path | None:
    """The plugin a case without `plugins` runs with: the nearest folder above it with a manifest."""
    for parent in [folder, *folder.resolve().parents]:
        if (parent / MANIFEST).is_file():
            return parent
    return None


def shown_path(path: Path, cwd: Path) -> str:
    """A path as the printed commands spell it: relative to cwd, unless that climbs far."""
    rel = os.path.relpath(path.resolve(), cwd.resolve())
    return rel if not rel.startswith("../../..") else str(path.resolve())


def case_plugins(case: Case, cwd: Path, problems: list[str]) -> tuple[Plugin, ...]:
    dirs: list[Path] = []
    if case.plugins is not None:
        for entry in case.plugins:
            target = (case.dir / entry).resolve()
            if not (target / MANIFEST).is_file():
                problems.append(
                    f"{case.where}: key 'plugins': {entry!r} is not a plugin folder "
                    f"({target / MANIFEST} is missing)"
                )
                continue
            dirs.append(target)
    else:
        found = nearest_plugin(case.dir)
        dirs = [found] if found is not None else []
    out = []
    for d in dirs:
        try:
            manifest = _manifest(d)
        except CaseError as exc:
            problems += exc.problems
            continue
        out.append(
            Plugin(name=str(manifest["name"]), path=shown_path(d, cwd), skills=plugin_skills(d, manifest))
        )
    return tuple(out)


def plugin_skills(plugin_dir: Path, manifest: Mapping[str, Any]) -> tuple[str, ...] | None:
    """What the plugin's Skill tool can invoke: its skills/<name>/SKILL.md and commands/<name>.md;
    None when its manifest names folders of its own (not followed here)."""
    if any(key in manifest for key in ("skills", "commands")):
        return None
    skills = [p.parent.name for p in (plugin_dir / "skills").glob("*/SKILL.md")]
    commands = [p.stem for p in (plugin_dir / "commands").glob("*.md")]
    return tuple(sorted({*skills, *commands}))


def _inside(base: Path, rel: str) -> Path | None:
    if not rel or Path(rel).is_absolute() or ".." in Path(rel).parts:
        return None
    full = (base / rel).resolve()
    return full if full == base.resolve() or base.resolve() in full.parents else None


def read_files(root: Path, where: str, problems: list[str], skipped: list[str]) -> dict[str, bytes]:
    """The regular files under root (POSIX paths), within the seed caps; links and special files
    are listed in `skipped`, `.git` is left out."""
    out: dict[str, bytes] = {}
    total = 0
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if ".git" in path.relative_to(root).parts:
            continue
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            skipped.append(f"{where}/{rel}")
            continue
        if path.is_file():
            data = path.read_bytes()
            total += len(data)
            out[rel] = data
            if len(out) > MAX_SEED_FILES or total > MAX_SEED_BYTES:
                problems.append(
                    f"{where}: over {MAX_SEED_FILES} files or {MAX_SEED_BYTES // 2**20} MB to seed"
                )
                return {}
    return out


def add_dir_files(case: Case, items: list[Item], problems: list[str]) -> dict[str, bytes]:
    seed: dict[str, bytes] = {}
    for entry in case.add_dirs:
        full = _inside(case.dir, entry)
        if full is None or full == case.dir.resolve():
            problems.append(
                f"{case.where}: key 'context.add_dirs': {entry!r} must name a folder inside the case"
            )
            continue
        if not full.exists():
            items.append(Item(NOT_IMPORTED, f"context.add_dirs {entry!r}: does not exist, nothing to seed"))
            continue
        if not full.is_dir():
            problems.append(f"{case.where}: key 'context.add_dirs': {entry!r} is a file, not a folder")
            continue
        rel = full.relative_to(case.dir.resolve()).as_posix()
        skipped: list[str] = []
        for name, data in read_files(full, rel, problems, skipped).items():
            seed[f"{rel}/{name}"] = data
        items.append(
            Item(
                DIFFERS,
                f"context.add_dirs {entry!r}: CPE let the agent read it in place; here it is copied into the "
                f"workspace at {rel}/ (writable, and seen by file graders)",
            )
        )
        items += [Item(NOT_IMPORTED, f"{s}: a link or special file, not seeded") for s in skipped]
    return seed


def run_scaffold(case: Case, problems: list[str], items: list[Item]) -> dict[str, bytes]:
    """Run the case's scaffold_script once, as the CLI would (bash, in an empty folder, a minimal
    environment), and keep what it made as seed files."""
    assert case.scaffold_script is not None
    script = _inside(case.dir, case.scaffold_script)
    if script is None or not script.is_file():
        problems.append(
            f"{case.where}: key 'context.scaffold_script': {case.scaffold_script!r} is not a file in the case"
        )
        return {}
    with tempfile.TemporaryDirectory(prefix="ponybench-scaffold-") as tmp:
        cwd, home, scratch = Path(tmp, "cwd"), Path(tmp, "home"), Path(tmp, "tmp")
        for d in (cwd, home, scratch):
            d.mkdir()
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "TMPDIR": str(scratch),
            "TERM": "dumb",
            "GIT_CONFIG_NOSYSTEM": "1",
        }
        proc = subprocess.Popen(
            ["bash", str(script)],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            _, err = proc.communicate(timeout=SCAFFOLD_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            problems.append(f"{case.where}: context.scaffold_script ran over {SCAFFOLD_TIMEOUT_S:g} s")
            return {}
        finally:
            try:  # anything it left running in its group
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if proc.returncode != 0:
            tail = err.decode("utf-8", "replace").strip()[-400:]
            problems.append(f"{case.where}: context.scaffold_script exited {proc.returncode}: {tail}")
            return {}
        skipped: list[str] = []
        seed = read_files(cwd, "scaffold", problems, skipped)
        if (cwd / ".git").exists():
            items.append(
                Item(DIFFERS, "scaffold_script made a .git: not seeded (every cell gets the harness's own)")
            )
    items.append(
        Item(
            DIFFERS,
            f"context.scaffold_script {case.scaffold_script!r}: run once at import; its {len(seed)} "
            "file(s) are seed/, the same for every cell (CPE ran it before each run)",
        )
    )
    items += [Item(NOT_IMPORTED, f"{s}: a link or special file, not seeded") for s in skipped]
    return seed


def final_reply(lines: Sequence[str]) -> str | None:
    """The last reply of a stream-json trajectory: the result event's text, else the last
    assistant message's text."""
    reply: str | None = None
    last_text: str | None = None
    for line in lines:
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(event, dict):
            continue
        if event.get("type") == "result" and isinstance(event.get("result"), str):
            reply = event["result"]
        elif event.get("type") == "assistant" and isinstance(event.get("message"), dict):
            content = event["message"].get("content")
            texts = (
                [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
                if isinstance(content, list)
                else []
            )
            if any(t.strip() for t in texts):
                last_text = "\n".join(texts)
    chosen = reply if reply and reply.strip() else last_text
    return chosen.strip() if chosen and chosen.strip() else None


def baseline_replies(
    case: Case, suite_root: Path, problems: list[str], hostile: list[str] | None = None
) -> dict[str, tuple[str | None, str]]:
    """A baseline grader's reference reply read from its baseline_file (or None and why); a file
    outside the suite goes to `hostile` (the suite is refused), else to `problems`."""
    out: dict[str, tuple[str | None, str]] = {}
    for g in case.graders:
        if g.type != "baseline":
            continue
        rel = str(g.keys["baseline_file"])
        full = (case.dir / rel).resolve()
        if Path(rel).is_absolute() or not full.is_relative_to(suite_root.resolve()):
            (problems if hostile is None else hostile).append(
                f"{g.where}: grader {g.name!r}: key 'baseline_file' must be a relative path inside "
                f"the suite, not {rel!r}"
            )
            continue
        if not full.is_file():
            out[g.name] = (None, f"baseline_file {rel!r} does not exist")
            continue
        try:
            lines = full.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            out[g.name] = (None, f"baseline_file {rel!r} cannot be read: {exc}")
            continue
        reply = final_reply(lines)
        out[g.name] = (
            reply,
            ""
            if reply
            else f"baseline_file {rel!r} holds no final reply (no result event or assistant text)",
        )
    return out


def folder_files(d: Draft, seed: Mapping[str, bytes], source: str) -> dict[str, bytes]:
    files = {
        "task.toml": d.task_toml(f"claude plugin eval: {source} (case {d.case.name!r})"),
        "prompt.md": (d.case.prompt.rstrip() + "\n").encode(),
        "IMPORTED.md": imported_md(d, source).encode(),
        **d.files,
        **{f"seed/{rel}": data for rel, data in seed.items()},
    }
    return files | d.ref_tomls(REF_NOTE)


def write_folder(target: Path, files: Mapping[str, bytes]) -> None:
    """Build the folder beside target, then rename it into place (refused if target exists)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for rel, data in files.items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        if target.exists():
            raise FileExistsError(f"{target} appeared while importing; left alone")
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def import_suite(
    path: Path,
    tasks_dir: Path,
    *,
    axis: str = "score",
    allow_scaffold: bool = False,
    strict: bool = False,
    grants: Sequence[str] = (),
    withheld: Sequence[str] = (),
    cwd: Path | None = None,
) -> ImportResult:
    """Import the suite at `path` into `tasks_dir`. A case CPE would not run (it does not load,
    or a run of it cannot start) is skipped with its problems, as CPE skips it; with `strict`,
    or when no case is left, or for a suite file no import reads (`HostileSuite`), CaseError
    lists every problem and nothing is written. `grants` and `withheld` are the operator's
    `--allow-tools` and `--disallow-tools` of the CPE run the tasks mirror."""
    cwd = cwd or Path.cwd()
    evals_dir, _ = locate(path)
    root = evals_dir.parent
    folders = find_cases(evals_dir)
    if not folders:
        raise CaseError([f"{evals_dir}: no case (a folder with case.yaml or prompt.md)"])
    cases: list[Case] = []
    skipped: dict[str, list[str]] = {}
    hostile: list[str] = []
    for folder in folders:
        try:
            cases.append(load_case(folder, root, evals_dir))
        except HostileSuite as exc:
            hostile += exc.problems
        except CaseError as exc:
            skipped[_rel(folder, root)] = exc.problems
    drafts: list[tuple[Draft, dict[str, bytes], str]] = []
    ids: dict[str, str] = {}
    for case in cases:
        problems: list[str] = []
        items: list[Item] = []
        plugins = case_plugins(case, cwd, problems)
        seed = add_dir_files(case, items, problems)
        if case.scaffold_script is not None and allow_scaffold and not problems:
            made = run_scaffold(case, problems, items)
            clash = sorted(set(made) & set(seed))
            if clash:
                problems.append(
                    f"{case.where}: scaffold_script and add_dirs both make {', '.join(clash[:3])}"
                )
            seed.update(made)
        replies = baseline_replies(case, evals_dir, problems, hostile)
        try:
            brought = case_context(case, evals_dir, root, problems)
        except HostileSuite as exc:
            hostile += exc.problems
            continue
        d = draft(
            case,
            axis=axis,
            plugins=plugins,
            baseline_replies=replies,
            seeded=sorted(seed),
            scaffolded=allow_scaffold and case.scaffold_script is not None,
            grants=grants,
            withheld=withheld,
            mocked=brought.mocked,
            history=brought.history,
        )
        d.files.update(brought.files)
        items += brought.items
        if d.task in ids and not problems:
            problems.append(
                f"{case.where}: case {case.name!r} is task {d.task}, as is {ids[d.task]}: rename one"
            )
        if problems:
            skipped[_rel(case.dir, root)] = problems
            continue
        ids[d.task] = case.where
        d.items = items + d.items
        drafts.append((d, seed, case.where))
    everything = [p for ps in skipped.values() for p in ps]
    if hostile or (skipped and (strict or not drafts)):
        raise CaseError(hostile + everything if hostile else everything)
    result = ImportResult(evals_dir=evals_dir, tasks_dir=tasks_dir, tasks=[], skipped=skipped)
    for d, seed, where in drafts:
        target = tasks_dir / d.task
        if target.exists():
            result.tasks.append(Written(d, target, existed=True))
            continue
        try:
            write_folder(target, folder_files(d, seed, where))
        except OSError as exc:  # a full disk, a read-only folder: named, not a traceback
            raise PonybenchError(f"{target}: cannot be written: {exc.strerror or exc}") from None
        result.tasks.append(Written(d, target, existed=False))
    result.arms, arm_items = arms_of([d for d, _, _ in drafts])
    result.suite_items = arm_items + suite_items(evals_dir, root, grants, withheld)
    result.results = sorted(p for p in evals_dir.rglob("aggregate-result.json") if p.is_file())
    return result


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def arms_of(drafts: Sequence[Draft]) -> tuple[dict[str, tuple[Plugin, ...]], list[Item]]:
    """One arm per distinct set of plugins the cases ran with."""
    arms: dict[str, tuple[Plugin, ...]] = {}
    items: list[Item] = []
    for d in drafts:
        if not d.plugins:
            continue
        name = arm_name([p.name for p in d.plugins])
        n = 2
        while name in arms and arms[name] != d.plugins:
            name = f"{arm_name([p.name for p in d.plugins])}_{n}"
            n += 1
        arms[name] = d.plugins
    if not arms:
        items.append(
            Item(
                TODO,
                "no plugin found for the cases (no `plugins` and no .claude-plugin/plugin.json above them): "
                "give the arm with --arm NAME=plugin:PATH",
            )
        )
    for name, plugins in arms.items():
        if len(plugins) > 1:
            items.append(
                Item(
                    NOT_IMPORTED,
                    f"arm {name}: the cases load {len(plugins)} plugins together; "
                    "an arm holds one plugin here",
                )
            )
    return arms, items


def suite_items(
    evals_dir: Path, root: Path, grants: Sequence[str] = (), withheld: Sequence[str] = ()
) -> list[Item]:
    """The suite's own checklist lines: the tools every task is offered (and the operator's
    grants that have no form here)."""
    offer = cpe_offer((), (), grants, withheld)
    given = f"with --allow-tools {' '.join(grants)}" if grants else "with no --allow-tools grant"
    items = [
        Item(
            TODO,
            f"every task is offered the tools CPE's session is offered {given}: {', '.join(offer.tools)} "
            "(a case listing TodoWrite adds the task list); import again with --allow-tools as the CPE "
            "run you compare with granted them",
        )
    ]
    items += [
        Item(NOT_IMPORTED, f"--allow-tools {s}: no ponybench session is offered a shell")
        for s in offer.shells
    ]
    items += [
        Item(DIFFERS, f"--allow-tools {s}: CPE grants the tool for that pattern only; here the whole tool")
        for s in offer.scoped
    ]
    items += [
        Item(
            DIFFERS, f"--allow-tools {s}: a plugin's MCP tools are offered with its arm here, no grant needed"
        )
        for s in offer.mcp
    ]
    return items


# ------------------------------------------------------------------ what the command prints


def _graders_text(d: Draft) -> str:
    graders = d.toml.get("graders", [])
    arms_only = sum(1 for g in graders if g.get("arm") == "arms-only")
    never = sum(1 for i in d.items if i.kind == NEVER and i.text.startswith("grader "))
    text = f"{len(graders)} of {len(d.case.graders)} grader(s)"
    return (
        text
        + (f", {arms_only} arms-only" if arms_only else "")
        + (f", {never} never passing" if never else "")
    )


def arm_lines(arms: Mapping[str, str], notes: Sequence[str] = ()) -> list[str]:
    """The arms to add, as a [tool.ponybench.arms] snippet and as --arm flags: name -> KIND:PATH."""
    if not arms and not notes:
        return []
    lines = [
        "",
        "Arms: add to [tool.ponybench.arms] in pyproject.toml",
        "  [tool.ponybench.arms]",
        f"  {BASELINE} = {{}}",
    ]
    for name, spec in arms.items():
        kind, path = spec.split(":", 1)
        lines.append(f"  {name} = {{ {kind} = {tomlw.string(path)} }}")
    lines += [f"  # {n}" for n in notes]
    if arms:
        lines.append("or on the command line: " + " ".join(f"--arm {n}={spec}" for n, spec in arms.items()))
    return lines


def next_lines(tasks_dir: Path, written: Sequence[str], models: Sequence[str], cwd: Path) -> list[str]:
    """The commands to run the tasks just written."""
    if not written:
        return []
    return [
        "",
        "Next: pytest --selftest-only, then",
        f"  pytest {shown_path(tasks_dir.parent, cwd)} -n 2 --tasks {','.join(written)}"
        + (f" --models {','.join(models)}" if models else " --models MODEL"),
    ]


def checklist_lines(tasks: Sequence[tuple[str, Sequence[Item]]], suite: Sequence[Item]) -> list[str]:
    """The checklist of every task written, a line per item with the tasks it concerns, by kind."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for task, items in tasks:
        for item in items:
            grouped.setdefault((item.kind, item.text), []).append(task)
    for item in suite:
        grouped.setdefault((item.kind, item.text), [])
    lines = ["", "Checklist (each task's own is in its IMPORTED.md):"] if grouped else []
    for kind in KINDS:
        mine = [(text, who) for (k, text), who in grouped.items() if k == kind]
        if mine:
            lines.append(f"  {LABELS[kind]}:")
            lines += [f"  - [ ] {', '.join(who) if who else 'suite'}: {text}" for text, who in mine]
    return lines


def render(result: ImportResult, cwd: Path | None = None) -> str:
    cwd = cwd or Path.cwd()
    shown = shown_path(result.tasks_dir, cwd)
    lines = [
        f"import-cpe: {len(result.tasks)} case(s) from {shown_path(result.evals_dir, cwd)} into {shown}/"
    ]
    width = max(len(w.draft.task) for w in result.tasks)
    for w in result.tasks:
        state = "exists, left alone" if w.existed else _graders_text(w.draft)
        verb = "kept" if w.existed else "wrote"
        lines.append(f"  {verb:7} {w.draft.task:<{width}}  {state}  ({w.draft.case.where})")
    for folder, problems in result.skipped.items():
        lines.append(f"  skipped {folder}/: {problems[0]}")
        lines += [f"          {p}" for p in problems[1:]]
    if result.skipped:
        lines.append(
            f"  ({len(result.skipped)} case(s) skipped, as claude plugin eval skips a case it cannot load "
            "or run; --strict refuses the suite instead)"
        )
    single = {n: f"plugin:{p[0].path}" for n, p in result.arms.items() if len(p) == 1}
    several = [
        f"{n}: {', '.join(p.path for p in ps)} together (one plugin per arm)"
        for n, ps in result.arms.items()
        if len(ps) > 1
    ]
    lines += arm_lines(single, several)
    models = sorted({w.draft.case.model for w in result.tasks if w.draft.case.model})
    lines += next_lines(result.tasks_dir, [w.draft.task for w in result.tasks if not w.existed], models, cwd)
    lines += checklist_lines(
        [(w.draft.task, w.draft.items) for w in result.tasks if not w.existed], result.suite_items
    )
    if result.results:
        lines += ["", "Results of earlier runs, readable as they are:"]
        lines += [f"  ponybench compare {shown_path(p, cwd)}" for p in result.results[-3:]]
    return "\n".join(lines)
