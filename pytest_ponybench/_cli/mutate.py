"""Mutate each scored task's passing references where they add code (Python and JavaScript:
comparisons, guards, sanitizer calls, regex anchors, constants, ...) and score every mutant with the
task's hidden checks in the sandboxed scorer; a mutant is killed when it is scored not correct or
not safe. Prints each task's figure and every survivor with its diff, and writes the figure into the
task's mutants.toml (the selftest prints it). Mark a survivor no check can tell from the reference
in [equivalent] there (id = "why"). Exit 1 when a task is below the goal or a reference fails
unmutated."""

from __future__ import annotations

import argparse

from pytest_ponybench._cli.common import Subparsers, command, folder_options, project_folders
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.mutation.runner import DEFAULT_GOAL, DEFAULT_MAX_MUTANTS, DEFAULT_TIMEOUT_S

__all__ = ["add", "run"]


def add(sub: Subparsers) -> None:
    mutate = command(
        sub,
        "mutate",
        run,
        __doc__,
        help="mutation testing of the tasks' checks: how many small bugs do they catch?",
    )
    mutate.add_argument(
        "--tasks", default="", metavar="IDS", help="task ids, comma-separated (default: every scored task)"
    )
    mutate.add_argument(
        "--changed-since",
        metavar="GITREF",
        help="only the tasks whose folder or fixture changed since GITREF (committed or not)",
    )
    mutate.add_argument("--jobs", type=int, default=2, metavar="N", help="scorings at once (default 2)")
    mutate.add_argument(
        "--max-mutants",
        type=int,
        default=DEFAULT_MAX_MUTANTS,
        metavar="N",
        help="per task, a fixed sample chosen by id beyond it (default %(default)s)",
    )
    mutate.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help="per scoring, at most the task's own (default %(default)s)",
    )
    mutate.add_argument(
        "--goal",
        type=float,
        default=DEFAULT_GOAL,
        metavar="SHARE",
        help="the share of mutants not marked equivalent to kill (default %(default)s)",
    )
    mutate.add_argument("--list", action="store_true", help="list the mutants and their diffs, score nothing")
    mutate.add_argument("--no-write", action="store_true", help="do not update the tasks' mutants.toml")
    folder_options(mutate, fixtures=True)


def run(args: argparse.Namespace) -> int:
    from pytest_ponybench.mutation.runner import Options
    from pytest_ponybench.mutation.runner import run as mutate

    for flag, value, fine, rule in (
        ("--jobs", args.jobs, args.jobs >= 1, "at least 1"),
        ("--max-mutants", args.max_mutants, args.max_mutants >= 1, "at least 1"),
        ("--timeout", args.timeout, args.timeout > 0, "more than 0"),
        ("--goal", args.goal, 0 < args.goal <= 1, "more than 0 and at most 1 (a share: 0.9)"),
    ):
        if not fine:
            raise PonybenchError(f"{flag} must be {rule}, not {value:g}")
    tasks, fixtures = project_folders(args.tasks_dir, args.fixtures_dir)
    if not tasks.is_dir():
        raise PonybenchError(
            f"{tasks}: no tasks folder here (give --tasks-dir, or run where pyproject.toml is)"
        )
    return mutate(
        Options(
            tasks_dir=tasks,
            fixtures_dir=fixtures.resolve(),
            tasks=tuple(w.strip() for w in args.tasks.split(",") if w.strip()),
            changed_since=args.changed_since,
            jobs=args.jobs,
            max_mutants=args.max_mutants,
            timeout=args.timeout,
            goal=args.goal,
            list_only=args.list,
            write=not args.no_write,
        )
    )
