"""The `ponybench` console script: read run dirs from disk, run no agent.

  ponybench summary RUN_DIR [--baseline ARM] [--primary METRIC] [--family model|run] [--markdown]
  ponybench compare RUN [--baseline ARM] [--primary METRIC] [--family model|run] [--fail-on RULES]
                    [--markdown]
  ponybench compare BASE_RUN CAND_RUN [--primary METRIC] [--family model|run] [--fail-on RULES]
                    [--markdown] [--html PATH]
  ponybench noise RUN_DIR [--baseline ARM] [--primary METRIC] [--family model|run]
  ponybench history [RUN_DIR... | FOLDER] [--fail-on RULES] [--window K] [--markdown | --json]
                    [--csv PATH] [--svg PATH] [--rebuild]   (default FOLDER runs/)
  ponybench report RUN_DIR [-o PATH]   (writes the HTML report, default RUN_DIR/report.html)
  ponybench report --history FOLDER [-o PATH]   (the page of a folder's runs over time)
  ponybench merge -o OUT RUN_DIR... [--allow-mixed] [--allow-missing]   (writes OUT only)
  ponybench import-cpe EVALS_DIR [-o TASKS_DIR] [--axis score|correct] [--allow-scaffold]
                       [--allow-tools TOOL...] [--disallow-tools TOOL...] [--strict]
  ponybench import-skill-creator PATH [-o TASKS_DIR] [--skill DIR] [--axis score|correct]
  ponybench init [DIR] [--with-suite]   (opts a repository in: writes only what is missing)
  ponybench task new NAME [--kind surgical|fixture|open] [--axis safe|correct] [--fixture REPO]
  ponybench mutate [--tasks IDS] [--changed-since GITREF] [--jobs N] [--list] [--no-write]
                   (mutation testing of the tasks' checks: writes each task's mutants.toml)

`compare` and `summary` also read `claude plugin eval` results: an aggregate-result.json (or the
folder holding one) stands where a run dir does.

Exit codes: 0 done (and no gate rule failed), 1 a --fail-on rule failed (history: or no earlier
comparable run to test against), a merged grid has
cells without a record or a task's checks are below the mutation goal, 2 a usage or data error
(bad rule, unknown arm or metric, a path that is not a run dir, run dirs of different grids), 3
an internal error (a bug: the traceback follows; never a verdict). A run dir is any folder with
a results.jsonl: `runs/<stamp>/`, one continued with --resume, or a `rescore-<stamp>/` inside
one.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence

from pytest_ponybench import __version__
from pytest_ponybench._cli import (
    compare,
    history,
    importcpe,
    importskill,
    init,
    merge,
    mutate,
    noise,
    report,
    summary,
    task,
)
from pytest_ponybench._cli.common import BROKEN_PIPE, GATE_FAILED, INTERNAL, OK, USAGE, load_records
from pytest_ponybench.errors import PonybenchError

__all__ = [
    "BROKEN_PIPE",
    "GATE_FAILED",
    "INTERNAL",
    "OK",
    "USAGE",
    "build_parser",
    "cmd_compare",
    "cmd_history",
    "cmd_import_cpe",
    "cmd_import_skill_creator",
    "cmd_init",
    "cmd_merge",
    "cmd_mutate",
    "cmd_noise",
    "cmd_report",
    "cmd_summary",
    "cmd_task_new",
    "load_records",
    "main",
]

# The subcommands in the order `ponybench --help` lists them; each adds its own parser.
COMMANDS = (summary, compare, noise, history, report, merge, importcpe, importskill, init, task, mutate)

cmd_summary = summary.run
cmd_compare = compare.run
cmd_noise = noise.run
cmd_history = history.run
cmd_report = report.run
cmd_merge = merge.run
cmd_import_cpe = importcpe.run
cmd_import_skill_creator = importskill.run
cmd_init = init.run
cmd_task_new = task.run
cmd_mutate = mutate.run


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ponybench",
        description="Summaries and verdicts of pytest-ponybench run dirs (reads results.jsonl, "
        "runs no agent), and a project's tasks: init, task new, mutate.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(
        dest="command",
        metavar="{summary,compare,noise,history,report,merge,import-cpe,import-skill-creator,init,task,mutate}",
    )
    for command in COMMANDS:
        command.add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return USAGE
    try:
        code: int = args.func(args)
    except PonybenchError as exc:  # a bad input, named: the one place it becomes an exit code
        print(f"ponybench: error: {exc}", file=sys.stderr)
        return USAGE
    except BrokenPipeError:
        # The reader left (`| head`): silence the flush at exit, end like a SIGPIPE'd process.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE
    except Exception as exc:  # noqa: BLE001 - a bug must never read as "the gate failed" (exit 1)
        traceback.print_exc()
        print(
            f"ponybench: internal error (a bug; please report it with the traceback above): {exc!r}",
            file=sys.stderr,
        )
        return INTERNAL
    return code


if __name__ == "__main__":
    sys.exit(main())
