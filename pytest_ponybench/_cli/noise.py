"""The smallest pass-rate and cost change the run could decide with 80% power, per model: from the
baseline's run-to-run noise, from each comparison's own spread, and measured by an A/A twin (an arm
with the baseline's content) where the run has one."""

from __future__ import annotations

import argparse

from pytest_ponybench._cli.common import (
    OK,
    Subparsers,
    command,
    load_records,
    note,
    one_run_arguments,
    procedure_of,
    require_records,
    required_baseline,
)
from pytest_ponybench.analysis import noise, verdict

__all__ = ["add", "run"]


def add(sub: Subparsers) -> None:
    n = command(sub, "noise", run, __doc__, help="the noise floor: the smallest change the run could decide")
    one_run_arguments(n)


def run(args: argparse.Namespace) -> int:
    """The run's noise floor: the smallest pass and cost change it could decide, per model."""
    records = load_records(args.run_dir)
    require_records(records, args.run_dir)
    baseline = required_baseline(records, args.baseline, args.run_dir)
    primary, family = procedure_of(args, records, args.run_dir)
    rows = verdict.arm_verdicts(records, baseline, primary=primary, family=family)
    found = noise.floors(records, baseline, primary=primary, family=family, rows=rows)
    print(
        f"noise floor of {args.run_dir}: the smallest true change each source could decide with "
        f"80% power, each metric at its level in the verdicts' procedure"
    )
    for model in sorted({f.model for f in found}):
        mine = [f for f in found if f.model == model]
        tasks = max(f.tasks for f in mine)
        runs = max(f.runs for f in mine)
        print(f"\n{model}: {tasks} tasks x {runs:.3g} runs")
        for f in mine:
            print(f"  {f.source}: {noise.describe(f)}")
        for row in rows:
            if row["model"] == model and row["twin"]:
                measured = ", ".join(
                    f"{verdict.METRIC_NAMES[e.metric]} {verdict.fmt_estimate(e)} {verdict.fmt_interval(e)} "
                    f"{verdict.word(e)}"
                    for e in row["effects"]
                    if e.metric in noise.FLOOR_METRICS
                )
                print(f"  measured by {row['arm']}, an A/A twin: {measured}")
    if not found:
        note("no spread to go by: the floor needs 2 runs per task or an arm to compare")
    elif not any(row["twin"] for row in rows):
        note(
            "no A/A twin in this run: an arm with the baseline's content (e.g. --arm twin=baseline) "
            "measures the floor instead of computing it"
        )
    return OK
