"""Read a skill's skill-creator evals (evals/evals.json: {skill_name, evals: [{id, prompt,
expected_output, files, expectations}]}, and any trigger set [{query, should_trigger}] beside it)
and write one task folder per eval (its prompt, its files seeded, each expectation an llm grader,
expected_output kept in IMPORTED.md) and one per trigger query (expect_fire true or false) under
TASKS_DIR. Prints the skill as an arm (a skills arm of its folder, or its plugin) against baseline,
and a checklist of what has no equivalent. Never overwrites a task folder; a malformed input is
refused whole, every problem named with its file and key."""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_ponybench._cli.common import OK, Subparsers, axis_option, command, tasks_out_option
from pytest_ponybench.errors import PonybenchError

__all__ = ["add", "run"]


def add(sub: Subparsers) -> None:
    i = command(
        sub,
        "import-skill-creator",
        run,
        __doc__,
        help="write a skill-creator suite (evals/evals.json, trigger sets) as task folders",
    )
    i.add_argument(
        "path",
        metavar="PATH",
        help="the skill's folder, its evals/ folder, its evals.json, or a trigger set (.json)",
    )
    tasks_out_option(i)
    i.add_argument(
        "--skill",
        metavar="DIR",
        help="the skill's folder (its SKILL.md), when it is not PATH or one of the folders above it",
    )
    axis_option(i, "expectations", "every expectation met")


def run(args: argparse.Namespace) -> int:
    # Imported here: the importer is for this command only.
    from pytest_ponybench.cpe.cases import CaseError
    from pytest_ponybench.cpe.skillcreator import import_skill_suite, render

    try:
        done = import_skill_suite(
            Path(args.path),
            Path(args.out),
            skill=Path(args.skill) if args.skill else None,
            axis=args.axis,
        )
    except CaseError as exc:
        raise PonybenchError("the suite is not imported:\n  " + "\n  ".join(exc.problems)) from exc
    print(render(done))
    return OK
