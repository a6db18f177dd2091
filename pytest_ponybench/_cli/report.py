"""Write a self-contained HTML report of a run dir (verdicts, plots, every cell with its transcript,
diff and failed checks, arms side by side); open it from the file system. Reads the run dir only."""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_ponybench._cli.common import (
    OK,
    Subparsers,
    baseline_option,
    command,
    load_records,
    require_records,
    write_html,
)
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.store import owner

__all__ = ["add", "run"]


def add(sub: Subparsers) -> None:
    r = command(sub, "report", run, __doc__, help="write the HTML report of a run dir")
    r.add_argument(
        "run_dir", nargs="?", metavar="RUN_DIR", help="runs/<stamp>, a rescore-<stamp>/ or a merged run dir"
    )
    r.add_argument(
        "--history",
        metavar="FOLDER",
        help="instead: the page of FOLDER's runs over time (default FOLDER/history.html), no cells",
    )
    r.add_argument(
        "-o", "--out", metavar="PATH", help="the page (default RUN_DIR/report.html); cell files go beside it"
    )
    baseline_option(r)


def run(args: argparse.Namespace) -> int:
    if args.history is not None:
        if args.run_dir is not None:
            raise PonybenchError("report takes RUN_DIR or --history FOLDER, not both")
        return _history(Path(args.history), Path(args.out) if args.out else None)
    if args.run_dir is None:
        raise PonybenchError("report needs RUN_DIR (or --history FOLDER)")
    require_records(load_records(args.run_dir), args.run_dir)  # the same errors as summary's
    run_dir, out = Path(args.run_dir), Path(args.out) if args.out else None
    inside = out is None or run_dir.resolve() in out.resolve().parents
    # Written into the run dir: not while a session writes it (its own report would replace
    # this one, half-way through a read of records still coming).
    held = owner.hold(run_dir, "ponybench report", shared=True) if inside and run_dir.is_dir() else None
    try:
        print(write_html([args.run_dir], out, args.baseline or "baseline"))
    finally:
        if held is not None:
            held.release()
    return OK


def _history(folder: Path, out: Path | None) -> int:
    if not folder.is_dir():
        raise PonybenchError(f"--history {folder}: no such folder")
    from pytest_ponybench.htmlreport import trendview  # the report's libraries, only when asked

    try:
        print(trendview.write_history_page(folder, out))
    except OSError as exc:
        target = out or folder / trendview.HISTORY_HTML
        raise PonybenchError(f"{target}: cannot write the page: {exc.strerror or exc}") from exc
    return OK
