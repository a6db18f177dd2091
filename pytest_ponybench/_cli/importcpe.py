"""Read a `claude plugin eval` suite (case.yaml, or prompt.md with front matter and graders/<name>.md)
and write one task folder per case under TASKS_DIR, with [[graders]] and the case's agent settings
in task.toml: its session offered the tools CPE's is, its judge asked as often. Prints the arm for
the plugin and a checklist of what has no equivalent and of graders that never pass (also in each
task's IMPORTED.md). Never overwrites a task folder; a case CPE would not run is skipped with its
problems, as CPE skips it (--strict refuses the suite)."""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_ponybench._cli.common import OK, Subparsers, axis_option, command, tasks_out_option
from pytest_ponybench.errors import PonybenchError

__all__ = ["add", "run"]


def add(sub: Subparsers) -> None:
    i = command(sub, "import-cpe", run, __doc__, help="write a `claude plugin eval` suite as task folders")
    i.add_argument(
        "evals_dir", metavar="EVALS_DIR", help="the eval dir (e.g. evals/), one case, or the plugin's root"
    )
    tasks_out_option(i)
    axis_option(i, "graders", "CPE's pass: every grader passes")
    i.add_argument(
        "--allow-scaffold",
        action="store_true",
        help="run each case's scaffold_script once (author-supplied bash, as you) and seed its files",
    )
    i.add_argument(
        "--allow-tools",
        nargs="+",
        default=[],
        metavar="TOOL",
        help="the tools the CPE run you mirror granted (its --allow-tools: Write, Edit, WebFetch, ...): "
        "every task is offered them, as CPE offered them",
    )
    i.add_argument(
        "--disallow-tools",
        nargs="+",
        default=[],
        metavar="TOOL",
        help="the tools that CPE run kept from every case (its --disallow-tools)",
    )
    i.add_argument(
        "--strict",
        action="store_true",
        help="refuse the whole suite when a case cannot be imported, instead of skipping that case",
    )


def run(args: argparse.Namespace) -> int:
    # Imported here: YAML and the importer are for this command only.
    from pytest_ponybench.cpe.cases import CaseError
    from pytest_ponybench.cpe.importer import import_suite, render

    try:
        done = import_suite(
            Path(args.evals_dir),
            Path(args.out),
            axis=args.axis,
            allow_scaffold=args.allow_scaffold,
            strict=args.strict,
            grants=args.allow_tools,
            withheld=args.disallow_tools,
        )
    except CaseError as exc:
        raise PonybenchError("the suite is not imported:\n  " + "\n  ".join(exc.problems)) from exc
    print(render(done))
    return OK
