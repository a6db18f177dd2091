"""Verdict blocks as text (the terminal, `ponybench summary`) and as Markdown (to paste into a
pull request): per (model, arm) the block's header lines, the cells passed, the table, what is
decided and why the rest is not, the footer lines and the notes.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_ponybench.analysis import stats
from pytest_ponybench.analysis.stats import ArmVerdict
from pytest_ponybench.analysis.verdict.blocks import (
    footer_lines,
    header_lines,
    paired_tasks,
    pass_counts,
    pass_line,
)
from pytest_ponybench.analysis.verdict.runs import arm_verdicts
from pytest_ponybench.analysis.verdict.words import (
    METRIC_NAMES,
    decided_sentence,
    fmt_estimate,
    fmt_interval,
    fmt_p,
    title,
    undecided_clauses,
    word,
)
from pytest_ponybench.core.records import Record

__all__ = [
    "HEADER",
    "INTRO",
    "render_rows",
    "render_rows_markdown",
    "render_verdicts",
    "render_verdicts_markdown",
]

HEADER = ("metric", "change", "95% interval", "verdict", "tasks", "p (adj.)")

INTRO = (
    "Verdicts: paired by task (the mean of its runs), 95% intervals; rates in percentage "
    "points, loc/cost/tokens/time as % change; the primary metric is tested first at most of "
    "the level, the rest share the remainder (weighted Holm, p adjusted over the family each "
    "block names); correct and safe are pass's breakdown."
)


def render_rows(rows: Sequence[ArmVerdict], records: Sequence[Record], *, rerun: str | None = None) -> str:
    """The text blocks for verdict rows (from stats.verdicts or compare_verdicts); `rerun`, the
    command that reruns a run's invalid cells, where the bound held a verdict back."""
    if not rows:
        return ""
    counts = pass_counts(records)
    lines = [INTRO]
    for row in rows:
        lines.append("")
        n = paired_tasks(row)
        if n == 0:
            lines.append(f"{title(row)}: no task has valid cells of both; nothing to compare")
            lines.append("  " + pass_line(row, counts))
            lines += ["  " + note for note in row.get("notes", [])]
            continue
        lines.append(f"{title(row)}: {n} paired tasks")
        lines += ["  " + line for line in header_lines(row)]
        lines.append("  " + pass_line(row, counts))
        body = [
            [
                METRIC_NAMES.get(e.metric, e.metric),
                fmt_estimate(e),
                fmt_interval(e),
                word(e),
                str(e.n_tasks),
                fmt_p(e),
            ]
            for e in row["effects"]
        ]
        widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(HEADER)]
        align = ("<", ">", ">", "<", ">", ">")
        fmt = "  " + "  ".join(f"{{:{a}{w}}}" for a, w in zip(align, widths, strict=True))
        lines.append(fmt.format(*HEADER).rstrip())
        lines += [fmt.format(*b).rstrip() for b in body]
        lines.append("  " + decided_sentence(row["effects"]))
        undecided = undecided_clauses(row["effects"])
        lines.append("  Undecided:" + ("" if undecided else " nothing."))
        lines += ["    " + c for c in undecided]
        lines += ["  " + line for line in footer_lines(row, rerun)]
        notes = row.get("notes", [])
        if notes:
            lines.append("  Left out and warnings:")
            lines += ["    " + note for note in notes]
    return "\n".join(lines)


def render_verdicts(
    records: Sequence[Record],
    baseline: str = "baseline",
    *,
    primary: str = stats.PRIMARY,
    family: str = "model",
    markdown: bool = False,
) -> str:
    """Text verdict blocks, one per (model, arm other than `baseline`); "" when there is no
    baseline or no other arm in the records. markdown: as `render_rows_markdown` writes them."""
    rows = arm_verdicts(records, baseline, primary=primary, family=family)
    return render_rows_markdown(rows, records) if markdown else render_rows(rows, records)


# --- Markdown -----------------------------------------------------------------------------------


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def _md_bold_lead(sentence: str) -> str:
    lead, _, rest = sentence.partition(": ")
    return f"**{lead}:** {_md_escape(rest)}"


def render_rows_markdown(
    rows: Sequence[ArmVerdict],
    records: Sequence[Record],
    heading: str = "ponybench verdict",
    *,
    rerun: str | None = None,
) -> str:
    if not rows:
        return ""
    counts = pass_counts(records)
    lines = [f"### {heading}", "", INTRO]
    for row in rows:
        lines += ["", f"#### {_md_escape(title(row))}", ""]
        n = paired_tasks(row)
        if n == 0:
            lines.append("No task has valid cells of both; nothing to compare.")
            lines += [""] + [f"- {_md_escape(note)}" for note in row.get("notes", [])]
            continue
        lines += [f"{n} paired tasks; {_md_escape(pass_line(row, counts))}.", ""]
        lines += [f"_{_md_escape(line)}_  " for line in header_lines(row)] + [""]
        lines.append("| " + " | ".join(HEADER) + " |")
        lines.append("|---|---:|---:|---|---:|---:|")
        for e in row["effects"]:
            w = word(e)
            shown = f"**{w}**" if w in (stats.BETTER, stats.WORSE) else w
            lines.append(
                f"| {METRIC_NAMES.get(e.metric, e.metric)} | {fmt_estimate(e)} | "
                f"{fmt_interval(e)} | {shown} | {e.n_tasks} | {fmt_p(e)} |"
            )
        undecided = undecided_clauses(row["effects"])
        lines += [
            "",
            _md_bold_lead(decided_sentence(row["effects"])),
            "",
            "**Undecided:**" + ("" if undecided else " nothing."),
        ]
        if undecided:
            lines += [""] + [f"- {_md_escape(c)}" for c in undecided]
        footer = footer_lines(row, rerun)
        if footer:
            lines += [""] + [f"- {_md_escape(line)}" for line in footer]
        notes = row.get("notes", [])
        if notes:
            lines += ["", "**Left out and warnings:**", ""] + [f"- {_md_escape(note)}" for note in notes]
    return "\n".join(lines)


def render_verdicts_markdown(records: Sequence[Record], baseline: str = "baseline", **procedure: str) -> str:
    """The verdict as Markdown (a heading, then a table per model and arm) to paste into a pull
    request; "" when there is nothing to compare. procedure: `primary`, `family`."""
    return render_verdicts(records, baseline, markdown=True, **procedure)
