"""Print the summary table and the verdict block of a run dir."""

from __future__ import annotations

import argparse

from pytest_ponybench._cli.common import (
    OK,
    Subparsers,
    command,
    emit,
    load_records,
    note,
    one_run_arguments,
    pick_baseline,
    procedure_of,
    run_verdicts,
)
from pytest_ponybench.analysis import agents, health, report, verdict

__all__ = ["add", "run"]


def add(sub: Subparsers) -> None:
    p = command(sub, "summary", run, __doc__, help="the summary table and the verdict of one run dir")
    one_run_arguments(p, markdown=True)


def run(args: argparse.Namespace) -> int:
    records = load_records(args.run_dir)
    table = report.render_table(records) or "no cell finished"
    if args.markdown:
        # Folded: the per-task table is long, the verdict is what a reviewer reads first.
        emit(
            f"<details><summary>ponybench summary: {args.run_dir}</summary>\n\n```\n{table}\n```\n</details>"
        )
    else:
        emit(table)
    grading = report.grading_lines(records) + health.health_lines(records)
    if grading:
        emit("\n".join(grading))
    baseline = pick_baseline(records, args.baseline, args.run_dir)
    arms = verdict.arms_of(records)
    if baseline is None:
        if arms:
            note(
                f"no arm named 'baseline', so no verdict; pick one with --baseline (arms: {', '.join(arms)})"
            )
        return OK
    if len(arms) < 2:
        note(f"only the arm {baseline!r}, so no verdict")
        return OK
    primary, family = procedure_of(args, records, args.run_dir)
    found = run_verdicts(records, args.run_dir, baseline, primary, family)
    print()
    if args.markdown:
        emit(
            verdict.render_rows_markdown(
                found.rows, found.records, heading=f"ponybench verdict: {args.run_dir}"
            )
        )
        if cross := agents.render_cross_agent_markdown(found.rows):
            emit(cross)
    else:
        emit("\n".join([*found.looks, verdict.render_rows(found.rows, found.records)]))
        if cross := agents.render_cross_agent(found.rows):
            emit(cross)
    return OK
