"""The HTML report of a run dir (or of two runs compared): one self-contained page plus one small
script per cell, opened from the file system with no server and no network.

    write_report(run_dir)                       -> run_dir/report.html (+ run_dir/report/)
    write_compare_report(base, cand, out_html)  -> out_html (+ the folder named after it)

Both only read the run dirs: records, run.json, summary.json, spend.json and the kept cell
folders. Nothing is run but git reading a workspace's base commit.
"""

from __future__ import annotations

from pathlib import Path

from pytest_ponybench.analysis import stats, verdict
from pytest_ponybench.core.records import Record
from pytest_ponybench.htmlreport.details import SOURCE_KEY
from pytest_ponybench.htmlreport.source import NotARunDir, Source, load

REPORT_HTML = "report.html"

__all__ = ["REPORT_HTML", "NotARunDir", "write_compare_report", "write_report"]


def _tag(source_index: int, source: Source) -> list[Record]:
    tagged = [Record(**r) for r in source.records]
    for rec in tagged:
        rec[SOURCE_KEY] = source_index
    return tagged


def write_report(run_dir: Path, out: Path | None = None, baseline: str = "baseline") -> Path:
    """Write the report of one run dir; return the page's path (default RUN_DIR/report.html).

    Raises NotARunDir when run_dir holds no results.jsonl, FileExistsError when the folder the
    cell scripts go to exists and is not a report's."""
    from pytest_ponybench.htmlreport.build import build
    from pytest_ponybench.htmlreport.trendview import section

    source = load(run_dir)
    records = _tag(0, source)
    info = source.info
    try:
        found = verdict.run_verdicts(
            records,
            info.design(),
            baseline,
            primary=info.options.primary or "pass",
            family=info.options.family or "model",
            direction=info.options.direction or stats.TWO_SIDED,
        )
        rows = found.rows
    except ValueError:  # a malformed design or a primary of another version: the fixed design's
        rows = verdict.arm_verdicts(records, baseline)
    arms = verdict.arms_of(records)
    note = ""
    if not rows and len(arms) > 1:
        note = f"no arm named {baseline!r}, so no verdict (arms: {', '.join(arms)})"
    return build(
        [source],
        records,
        rows,
        out if out is not None else run_dir / REPORT_HTML,
        title=f"ponybench report: {run_dir.name}",
        baseline=baseline,
        baseline_note=note,
        trend=section(run_dir),
    )


def write_compare_report(
    base_dir: Path, cand_dir: Path, out: Path, labels: tuple[str, str] | None = None
) -> Path:
    """The candidate run against the base run, arm by arm (as `ponybench compare BASE CAND`);
    each run is named by its label (default: its folder's name).

    Raises NotARunDir, and ValueError when the runs share no task or no (model, arm)."""
    from pytest_ponybench.htmlreport.build import build

    base, cand = load(base_dir, "base"), load(cand_dir, "candidate")
    base_label, cand_label = labels or (base_dir.name or "base", cand_dir.name or "candidate")
    if base_label == cand_label:
        base_label, cand_label = "base", "candidate"
    base.label, cand.label = base_label, cand_label
    rows, records = verdict.compare_verdicts(
        _tag(0, base), _tag(1, cand), base_label=base_label, cand_label=cand_label
    )
    return build(
        [base, cand],
        records,
        rows,
        out,
        title=f"ponybench comparison: {cand_label} vs {base_label}",
        baseline=base_label,
    )
