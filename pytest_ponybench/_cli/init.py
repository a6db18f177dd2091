"""Write what a repository needs to benchmark with pytest-ponybench: the root conftest.py (the
project's hooks), benchmarks/test_cells.py, four starter tasks (hidden checks, reply graders, tool
path, a judge) whose references pass the selftest at once, and a [tool.ponybench] block in
pyproject.toml (appended; a new pyproject.toml holding only it where there is none) with an arm for
each Claude Code plugin found (.claude-plugin/plugin.json), or an example prompt arm. Never
overwrites a file: what exists is reported and left as it is."""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_ponybench._cli.common import OK, Subparsers, command

__all__ = ["add", "run"]


def add(sub: Subparsers) -> None:
    init = command(
        sub, "init", run, __doc__, help="opt a repository in: conftest.py, starter tasks, [tool.ponybench]"
    )
    init.add_argument("dir", nargs="?", default=".", metavar="DIR", help="the repository (default: here)")
    init.add_argument(
        "--with-suite",
        action="store_true",
        help="also copy the shipped suite (its tasks, fixtures and the example plugin) in, for editing",
    )


def run(args: argparse.Namespace) -> int:
    from pytest_ponybench.scaffold.project import init_project, render_init

    print(render_init(init_project(Path(args.dir), with_suite=args.with_suite), Path.cwd()))
    return OK
