"""Write benchmarks/tasks/NAME (or [tool.ponybench] tasks of ./pyproject.toml): task.toml with every
key commented, prompt.md, seed/, good/, bad/ and checks/, around a small placeholder task that
passes the selftest, whose summary then says what the references still lack. Refuses an existing
folder and a bad name."""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_ponybench._cli.common import OK, Subparsers, command, folder_options, project_folders

__all__ = ["add", "run"]


def add(sub: Subparsers) -> None:
    task = sub.add_parser("task", help="task folders: `task new NAME` scaffolds one")
    task_sub = task.add_subparsers(dest="task_command", metavar="{new}", required=True)
    new = command(task_sub, "new", run, __doc__, help="scaffold a task folder")
    new.add_argument(
        "name", metavar="NAME", help="the task id: letters, digits, _ and -, starting with a letter"
    )
    new.add_argument(
        "--kind",
        choices=("surgical", "fixture", "open"),
        default="surgical",
        help="surgical: write a file (default) | fixture: edit a copied repository | open: answer in chat",
    )
    new.add_argument(
        "--axis",
        choices=("safe", "correct"),
        default="safe",
        help="what the bad reference fails (default safe)",
    )
    new.add_argument(
        "--fixture",
        metavar="REPO",
        help="with --kind fixture: the folder under fixtures/ (default NAME; a new one gets a README)",
    )
    folder_options(new)


def run(args: argparse.Namespace) -> int:
    from pytest_ponybench.scaffold.newtask import new_task, render_new_task

    tasks, fixtures = project_folders(args.tasks_dir)
    done = new_task(
        tasks,
        args.name,
        kind=args.kind,
        axis=args.axis,
        fixture=args.fixture,
        fixtures_dir=fixtures,
        # Folders ./pyproject.toml names must stay in this project; --tasks-dir is the user's word.
        inside=None if args.tasks_dir else Path.cwd().resolve(),
    )
    print(render_new_task(done, Path.cwd()))
    return OK
