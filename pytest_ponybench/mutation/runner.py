"""Mutation testing of a suite's checks, run: how many small bugs in a correct solution do the
hidden checks catch? (`ponybench mutate`; `scripts/mutate_refs.py` runs it on this repository.)

For each task it takes the references that must pass (`good/` and every `refs/<name>/` declared
`correct, safe`), makes mutants of the code they add (`mutants.task_mutants`), and scores each
mutant with the task's hidden checks through the project's own sandboxed scorer
(`workspace.lay` + `checks.score`, as the selftest does), in worker processes. A mutant is
killed when it is scored not correct or not safe. Each task's figure is written into its
mutants.toml, and the survivors are listed (each with its diff) for a new or sharper check, or
a mark as equivalent.

More than `max_mutants` mutants per task are cut to that many, chosen by id (a fixed
pseudo-random sample that unrelated edits do not reshuffle). A task is below the goal when less
than `goal` of its mutants not marked equivalent are killed, or a reference fails unmutated.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pytest_ponybench.core.tasks import Task, load_task, load_tasks
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.mutation.mutants import (
    Mutant,
    TaskOutcome,
    changed_lines,
    is_javascript,
    is_mutated,
    is_typescript,
    mutants_of,
)
from pytest_ponybench.mutation.mutantsfile import (
    MUTANTS_FILE,
    MutantsFile,
    read_mutants_file,
    render_mutants_file,
)
from pytest_ponybench.scoring import workspace
from pytest_ponybench.scoring.checks import Score, score, take_probe

__all__ = [
    "DEFAULT_GOAL",
    "DEFAULT_MAX_MUTANTS",
    "DEFAULT_TIMEOUT_S",
    "MUTATOR",
    "ChangedSinceError",
    "Job",
    "Options",
    "Verdict",
    "base_text",
    "changed_tasks",
    "git_root",
    "js_parses",
    "references_to_mutate",
    "run",
    "sandbox_failed",
    "score_job",
    "task_mutants",
    "without_unparsable",
]

DEFAULT_GOAL = 0.9
DEFAULT_MAX_MUTANTS = 120
DEFAULT_TIMEOUT_S = 30.0
# Where the mutator itself lives in this project's repository: a change there may change every
# task's mutants, so --changed-since then selects every task.
MUTATOR = ("pytest_ponybench/mutation/", "scripts/mutate_refs.py")


@dataclass(frozen=True)
class Options:
    """What `ponybench mutate` was asked, checked by its parser."""

    tasks_dir: Path
    fixtures_dir: Path
    tasks: tuple[str, ...] = ()  # task ids (none: every scored task)
    changed_since: str | None = None  # a git ref: only the tasks changed since
    jobs: int = 2
    max_mutants: int = DEFAULT_MAX_MUTANTS
    timeout: float = DEFAULT_TIMEOUT_S
    goal: float = DEFAULT_GOAL
    list_only: bool = False  # list the mutants and their diffs, score nothing
    write: bool = True  # update each task's mutants.toml


# --------------------------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True)
class Job:
    task_dir: str
    fixtures_dir: str
    ref: str
    path: str
    source: str
    timeout: float
    mutant_id: str


@dataclass(frozen=True)
class Verdict:
    mutant_id: str
    killed: bool
    reason: str


def _init_worker() -> None:
    take_probe()  # the probe and the exec shim, read once per worker as a session does


@functools.cache
def _task(task_dir: str, fixtures_dir: str) -> Task:
    return load_task(Path(task_dir), Path(fixtures_dir))


# A scoring whose check process died before any check started says nothing of the mutant when
# the sandbox failed to start (it does, rarely, under heavy load): such a scoring is tried again,
# so a transient failure never counts a survivor as killed. A mutant that kills the process
# every time (say, exits at import) is killed.
SANDBOX_TRIES = 3


def sandbox_failed(result: Score) -> bool:
    """Whether the check process ended before pytest reported any check."""
    return [(c.nodeid, c.outcome) for c in result.checks] == [("session", "crashed")]


def score_job(job: Job) -> Verdict:
    """Lay the reference, put the mutated file over it and score it in the sandbox."""
    task = _task(job.task_dir, job.fixtures_dir)
    task = dataclasses.replace(task, timeout=min(task.timeout, job.timeout))
    for _ in range(SANDBOX_TRIES):
        with tempfile.TemporaryDirectory(prefix=f"ponybench-mutant-{task.id}-") as tmp:
            ws = Path(tmp) / "ws"
            workspace.lay(task, ws, reference=job.ref)
            if job.path:
                (ws / job.path).write_text(job.source, encoding="utf-8")
            result = score(task, ws)
        if not sandbox_failed(result):
            break
    return Verdict(job.mutant_id, not (result.correct and result.safe), result.reason)


# --------------------------------------------------------------------------------------------
# One task


def references_to_mutate(task: Task) -> list[tuple[str, dict[str, bytes]]]:
    return [(r.name, dict(r.files)) for r in task.references if r.expect.correct and r.expect.safe]


def base_text(task: Task, path: str) -> str | None:
    """The file as the agent found it (seed over fixture), or None if it is new."""
    if path in task.seed:
        return task.seed[path].decode("utf-8", "replace")
    if task.fixture_path is not None and (task.fixture_path / path).is_file():
        return (task.fixture_path / path).read_text(encoding="utf-8", errors="replace")
    return None


def task_mutants(task: Task, cap: int) -> tuple[list[Mutant], int]:
    """(the mutants to score, how many were made before the cap). A task without hidden checks
    (judged by its graders alone, which the selftest proves) has none: nothing runs its code."""
    found: list[Mutant] = []
    if not task.checks:
        return found, 0
    originals: dict[tuple[str, str], str] = {}
    for ref, files in references_to_mutate(task):
        for path, data in sorted(files.items()):
            if not is_mutated(path):
                continue
            text = data.decode("utf-8", "replace")
            originals[ref, path] = text
            found += mutants_of(ref, path, text, changed_lines(base_text(task, path), text))
    found = without_unparsable(task.id, found, originals)
    made = len(found)
    if made > cap:
        found = sorted(sorted(found, key=lambda m: m.id)[:cap], key=lambda m: (m.ref, m.path, m.line, m.id))
    return found, made


NODE_PARSE = r"""
const vm = require("node:vm");
const files = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const parses = (source, module) => {
  try {
    if (module) new vm.SourceTextModule(source);
    else vm.compileFunction(source, ["exports", "require", "module", "__filename", "__dirname"]);
    return true;
  } catch {
    return false;
  }
};
process.stdout.write(JSON.stringify(files.map(({ original, mutants }) => {
  const module = parses(original, true);
  return mutants.map((source) => parses(source, module));
})));
"""


TS_PARSE = r"""
const ts = require(process.argv[1]);
const files = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const parses = (source) => {
  const out = ts.transpileModule(source, { reportDiagnostics: true, fileName: "mutant.ts",
                                           compilerOptions: { target: ts.ScriptTarget.ES2022 } });
  return (out.diagnostics ?? []).length === 0;
};
process.stdout.write(JSON.stringify(files.map(({ mutants }) => mutants.map(parses))));
"""


def typescript_module() -> str | None:
    """The TypeScript compiler's library, found through `tsc` on PATH (typescript/bin/tsc)."""
    tsc = shutil.which("tsc")
    if tsc is None:
        return None
    lib = Path(os.path.realpath(tsc)).parent.parent / "lib" / "typescript.js"
    return str(lib) if lib.is_file() else None


def js_parses(files: list[tuple[str, list[str]]], *, typescript: bool = False) -> list[list[bool]] | None:
    """For each (original, mutants) of a JavaScript file, whether node parses each mutant as it
    parses the original (an ES module, else a CommonJS body); None without node. Node only
    compiles the text (vm), never runs it. A TypeScript file is parsed by the TypeScript
    compiler instead (its syntax only: types are the checks' to judge); None without one."""
    node = shutil.which("node")
    if node is None or not files:
        return None
    payload = json.dumps([{"original": o, "mutants": m} for o, m in files])
    argv = [node, "--no-warnings", "--experimental-vm-modules", "-e", NODE_PARSE]
    if typescript:
        lib = typescript_module()
        if lib is None:
            return None
        argv = [node, "-e", TS_PARSE, lib]
    done = subprocess.run(
        argv,
        input=payload,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        return None
    answer: list[list[bool]] = json.loads(done.stdout)
    return answer


def without_unparsable(
    task_id: str, mutants: list[Mutant], originals: dict[tuple[str, str], str]
) -> list[Mutant]:
    """The mutants less the JavaScript ones node cannot parse: the tokenizer is no parser, and
    a mutant that is not a program would be killed for nothing (said on stderr: a mutator bug)."""
    bad: set[int] = set()
    for typescript in (False, True):
        groups: dict[tuple[str, str], list[Mutant]] = {}
        for m in mutants:
            if is_javascript(m.path) and is_typescript(m.path) == typescript:
                groups.setdefault((m.ref, m.path), []).append(m)
        keys = list(groups)
        verdicts = js_parses(
            [(originals[k], [m.source for m in groups[k]]) for k in keys], typescript=typescript
        )
        if verdicts is None:
            continue
        bad |= {
            id(m)
            for k, oks in zip(keys, verdicts, strict=True)
            for m, ok in zip(groups[k], oks, strict=True)
            if not ok
        }
    for m in mutants:
        if id(m) in bad:
            print(
                f"ponybench mutate: {task_id}: left out {m.id} ({m.where} {m.operator}): it does not parse",
                file=sys.stderr,
            )
    return [m for m in mutants if id(m) not in bad]


# --------------------------------------------------------------------------------------------
# Selection


class ChangedSinceError(PonybenchError):
    """git could not say what changed since the ref (not a repository, an unknown ref)."""


def _git_lines(repo: Path, since: str, *args: str) -> list[str]:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise ChangedSinceError(f"--changed-since {since}: git {' '.join(args)}: {done.stderr.strip()}")
    return [line for line in done.stdout.splitlines() if line]


def git_root(folder: Path, since: str) -> Path:
    """The top of the git checkout holding folder (git names changed paths from there)."""
    return Path(_git_lines(folder, since, "rev-parse", "--show-toplevel")[0])


def changed_tasks(
    since: str,
    repo: Path,
    tasks_dir: Path,
    fixtures: dict[str, str | None],
    fixtures_dir: Path | None = None,
) -> list[str]:
    """Task ids whose folder or fixture changed since the git ref, committed or not (every task
    when the mutator itself changed). `fixtures` maps each task id to its fixture or None; repo
    is the checkout's top, fixtures_dir the fixtures folder (default repo/fixtures)."""
    paths = _git_lines(repo, since, "diff", "--name-only", since, "--")
    paths += _git_lines(repo, since, "ls-files", "--others", "--exclude-standard")
    if any(p.startswith(MUTATOR) for p in paths):
        return sorted(fixtures)
    top = repo.resolve()

    def under(folder: Path) -> str:
        where = folder.resolve()
        return where.relative_to(top).as_posix() + "/" if where.is_relative_to(top) else ""

    tasks_rel, fixtures_rel = under(tasks_dir), under(fixtures_dir or repo / "fixtures")
    out: set[str] = set()
    for p in paths:
        if tasks_rel and p.startswith(tasks_rel):
            out.add(p[len(tasks_rel) :].split("/", 1)[0])
        elif fixtures_rel and p.startswith(fixtures_rel):
            name = p[len(fixtures_rel) :].split("/", 1)[0]
            out.update(t for t, fixture in fixtures.items() if fixture == name)
    return sorted(t for t in out if t in fixtures)


# --------------------------------------------------------------------------------------------
# The run


# --------------------------------------------------------------------------------------------
# Output


def _print_task(outcome: TaskOutcome, goal: float) -> None:
    made = f", {outcome.generated} made" if outcome.generated != len(outcome.mutants) else ""
    flag = "" if outcome.rate >= goal and not outcome.broken_refs else "  BELOW GOAL"
    print(
        f"{outcome.task}: mutants {outcome.killed}/{outcome.scored} killed ({outcome.rate:.0%}), "
        f"{len(outcome.equivalent)} equivalent, {len(outcome.mutants)} in all{made}; "
        f"{outcome.seconds:.0f} s{flag}",
        flush=True,
    )
    for ref in outcome.broken_refs:
        print(f"  REFERENCE FAILS UNMUTATED: {ref}")
    for mutant in outcome.survived:
        print(f"  SURVIVED {mutant.id} {mutant.where} {mutant.operator}")
        for line in mutant.diff().splitlines():
            print(f"    {line}")
    for mutant in outcome.killed_but_marked:
        print(f"  KILLED BUT MARKED EQUIVALENT {mutant.id} {mutant.where} {mutant.operator}: remove the mark")


def _list(
    selected: list[Task], plans: dict[str, tuple[list[Mutant], int]], files: dict[str, MutantsFile]
) -> None:
    for task in selected:
        mutants, made = plans[task.id]
        print(f"{task.id}: {len(mutants)} mutants ({made} made)")
        for m in mutants:
            mark = "  [equivalent]" if m.id in files[task.id].equivalent else ""
            print(f"  {m.id} {m.where} {m.operator}{mark}")
            for line in m.diff().splitlines():
                print(f"    {line}")


def _selected(opts: Options) -> list[Task]:
    """The scored tasks asked for; a task id that is not there, or a bad ref, is an error."""
    tasks = [t for t in load_tasks(opts.tasks_dir, opts.fixtures_dir) if t.scored]
    by_id = {t.id: t for t in tasks}
    wanted = list(opts.tasks)
    unknown = [w for w in wanted if w not in by_id]
    if unknown:
        raise PonybenchError(
            f"--tasks: unknown task(s) {', '.join(unknown)} in {opts.tasks_dir} "
            f"(known: {', '.join(sorted(by_id)) or 'none'})"
        )
    if opts.changed_since:
        since = opts.changed_since
        fixtures = {t.id: t.fixture for t in tasks}
        changed = changed_tasks(
            since, git_root(opts.tasks_dir, since), opts.tasks_dir, fixtures, opts.fixtures_dir
        )
        return [by_id[w] for w in (wanted or changed) if w in changed]
    return [by_id[w] for w in wanted] if wanted else tasks


def run(opts: Options) -> int:
    """Mutate and score the selected tasks, print each task's figure and its survivors, and
    write the figures; 1 when a task is below the goal, else 0."""
    selected = _selected(opts)
    if not selected:
        print(
            f"ponybench mutate: no task changed since {opts.changed_since}"
            if opts.changed_since
            else "ponybench mutate: no scored task"
        )
        return 0
    files = {task.id: read_mutants_file(task.path / MUTANTS_FILE) for task in selected}
    plans = {t.id: task_mutants(t, opts.max_mutants) for t in selected}
    if opts.list_only:
        _list(selected, plans, files)
        return 0

    below = 0
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
        opts.jobs, mp_context=context, initializer=_init_worker
    ) as pool:
        for task in selected:
            started = time.monotonic()
            mutants, made = plans[task.id]
            outcome = TaskOutcome(task.id, mutants, generated=made)
            common = (str(task.path), str(opts.fixtures_dir.resolve()))
            baselines = [
                Job(*common, ref, "", "", opts.timeout, ref)
                for ref, _ in (references_to_mutate(task) if task.checks else [])
            ]
            for verdict in pool.map(score_job, baselines):
                if verdict.killed:
                    outcome.broken_refs.append(f"{verdict.mutant_id}: {verdict.reason}")
            jobs = [Job(*common, m.ref, m.path, m.source, opts.timeout, m.id) for m in mutants]
            verdicts = {v.mutant_id: v for v in pool.map(score_job, jobs)}
            marked = files[task.id].equivalent
            for m in mutants:
                if verdicts[m.id].killed:
                    outcome.killed += 1
                    if m.id in marked:
                        outcome.killed_but_marked.append(m)
                elif m.id in marked:
                    outcome.equivalent.append(m)
                else:
                    outcome.survived.append(m)
            outcome.seconds = time.monotonic() - started
            _print_task(outcome, opts.goal)
            if outcome.rate < opts.goal or outcome.broken_refs:
                below += 1
            if opts.write and not outcome.broken_refs:
                target = task.path / MUTANTS_FILE
                target.write_text(render_mutants_file(outcome, files[task.id]), encoding="utf-8")
    print(f"{len(selected)} task(s), {below} below the goal of {opts.goal:.0%}")
    return 1 if below else 0
