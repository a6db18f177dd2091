"""Join the run dirs of the shards of one grid (--shard I/N) into OUT, a run dir every command accepts.
Refuses parts of different grids (task and arm hashes included), and parts of different claude
versions or resources unless --allow-mixed. Exit 1 when cells of the grid have no record (a shard
that never arrived) unless --allow-missing; OUT is written anyway, and pytest --resume OUT runs
exactly the missing cells."""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_ponybench._cli.common import GATE_FAILED, OK, Subparsers, command, note
from pytest_ponybench.store import merge as merging

__all__ = ["add", "run"]


def add(sub: Subparsers) -> None:
    m = command(sub, "merge", run, __doc__, help="join shard run dirs of one grid into one run dir")
    m.add_argument("runs", nargs="+", metavar="RUN_DIR", help="the shards' run dirs")
    m.add_argument("-o", "--out", required=True, metavar="OUT", help="the merged run dir (new or empty)")
    m.add_argument(
        "--allow-mixed",
        action="store_true",
        help="merge parts run by different claude versions or with different resources (recorded)",
    )
    m.add_argument("--allow-missing", action="store_true", help="exit 0 even when cells have no record")


def run(args: argparse.Namespace) -> int:
    done = merging.merge([Path(p) for p in args.runs], Path(args.out), allow_mixed=args.allow_mixed)
    recorded = f"{done.recorded} of {done.expected} cells recorded"
    print(f"merged {len(args.runs)} run dir(s) into {done.out}: {recorded}")
    print(f"spend: ${done.spent_usd:.4f} (the parts' spend summed)")
    if done.mixed:
        versions = ", ".join(f"{p}: {v or 'unknown'}" for p, v in done.claude_versions.items())
        note(f"mixed claude versions, recorded in run.json: {versions}")
    if done.envelopes:
        listed = "; ".join(f"{p}: {text}" for p, text in done.envelopes.items())
        note(f"mixed resources, recorded in run.json: {listed}")
    for cell_id, holders in done.duplicates.items():
        where = ", ".join(holders)
        note(f"cell {cell_id} recorded in {len(holders)} parts ({where}); its last valid attempt counts")
    if not done.missing:
        return OK
    print(f"{len(done.missing)} cell(s) of the grid have no record:")
    for cell_id in done.missing:
        print(f"  missing: {cell_id}")
    print(f"run them with: pytest BENCHMARKS --resume {done.out}")
    return OK if args.allow_missing else GATE_FAILED
