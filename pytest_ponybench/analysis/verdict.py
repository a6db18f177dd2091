"""Verdict blocks (text and Markdown), the two-run comparison and the regression gate.

Pure functions over records: the statistics come from `stats`, this module decides how they are
read. A verdict block is one arm against the baseline for one model: the procedure and the
family it is decided in, then per metric the estimate, its 95 % interval, one word (better /
worse / undecided) and the adjusted p, then what is decided and, for the rest, why not: how
many tasks would settle it, or what is ruled out; then the missing cells' bound, reliability
(pass^k, pass@k) and the noise floor.

Comparing two runs reuses the same machinery: `compare_runs` relabels the records so that the
first run's cells become the baseline arm and the second run's the candidate arm, separately for
every arm name both runs have (model "sonnet, arm mine"), and `compare_verdicts` puts the
family back to "every comparison of one model" (or of the run), as in a single run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pytest_ponybench.analysis import noise, reliability, report, sequential, stats
from pytest_ponybench.analysis.stats import ArmVerdict, Bound, Effect
from pytest_ponybench.core.records import Record, is_scored, is_valid, latest, passed

__all__ = [
    "GateFailure",
    "GateOutcome",
    "HEADER",
    "INTRO",
    "METRIC_NAMES",
    "SOURCE_ARM",
    "SOURCE_MODEL",
    "SOURCE_RUN",
    "TWIN_NOTE",
    "arm_verdicts",
    "arms_of",
    "bound_line",
    "check_gate",
    "compare_runs",
    "compare_verdicts",
    "decided_sentence",
    "family_line",
    "floor_line",
    "fmt_estimate",
    "fmt_interval",
    "fmt_p",
    "footer_lines",
    "gate_report",
    "grid_notes",
    "header_lines",
    "is_decided",
    "procedure_line",
    "reliability_lines",
    "render_rows",
    "render_rows_markdown",
    "render_verdicts",
    "render_verdicts_markdown",
    "run_verdicts",
    "RunVerdicts",
    "undecided_clauses",
    "why_undecided",
    "word",
]

# Display names: the short names gate rules take (stats.METRIC_ALIASES), so what the table shows
# is what a user types after --fail-on.
METRIC_NAMES = {
    "pass": "pass",
    "correct": "correct",
    "safe": "safe",
    "score": "score",
    "total_loc": "loc",
    "cost_usd": "cost",
    "tokens": "tokens",
    "duration_ms": "time",
}
# Record fields compare_runs adds, keeping what was relabeled.
SOURCE_MODEL: Final = "compare_model"
SOURCE_ARM: Final = "compare_arm"
SOURCE_RUN: Final = "compare_run"

HEADER = ("metric", "change", "95% interval", "verdict", "tasks", "p (adj.)")


# --- numbers and words ------------------------------------------------------------------------


def _signed(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{round(x, 1) + 0.0:+.1f}"  # + 0.0: never print "-0.0"


def _unit(e: Effect) -> str:
    return " pp" if e.kind == "rate_diff" else "%"


def fmt_estimate(e: Effect) -> str:
    return "-" if e.n_tasks == 0 else f"{_signed(e.estimate)}{_unit(e)}"


def fmt_interval(e: Effect) -> str:
    if e.n_tasks == 0:
        return "-"
    if e.kind == "rate_diff":
        return f"[{_signed(e.low)}, {_signed(e.high)}] pp"
    return f"[{_signed(e.low)}%, {_signed(e.high)}%]"


def fmt_p(e: Effect) -> str:
    if e.n_tasks == 0 or not e.tested:
        return "-"
    p = e.p if e.p_adj is None else e.p_adj
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def word(e: Effect) -> str:
    if e.n_tasks == 0:
        return "no data"
    return e.verdict if e.tested else "in pass"


def _resolve_phrase(e: Effect) -> str:
    return "a 10-point difference" if e.kind == "rate_diff" else "a 10% change"


def _level(e: Effect) -> str:
    return f"{e.level:.2g}"


def why_undecided(e: Effect) -> str:
    """What it would take to decide an undecided effect, in words. The hint is the verdict's own
    test: the paired t-test's power at the metric's level in the family's procedure (its first
    step: alpha times its weight, the level the block's procedure line names)."""
    if e.n_tasks == 0:
        return "no paired task measured it"
    if not e.tested:
        return "the breakdown of pass (which axis moved), not tested on its own"
    if stats.is_negligible(e.low, e.high) and e.n_tasks > 1:
        unit = " point" if e.kind == "rate_diff" else "%"
        return f"negligible: the whole interval is within ±{stats.NEGLIGIBLE:g}{unit} of no change"
    if e.n_tasks == 1:
        return "only 1 paired task: no spread to test against; a verdict needs more tasks"
    if e.zero_spread and e.needed_tasks is not None and e.n_tasks < e.needed_tasks:
        return (
            f"every task moved by the same amount, so the sign test decides: it needs at least "
            f"{e.needed_tasks} tasks all one way at its level p < {_level(e)}"
        )
    # An interval that excludes 0 next to "undecided": the test passed at 5 % but not at the
    # metric's level in the family; say so rather than look like a contradiction.
    test = (
        f"the 95% interval excludes 0, but a verdict needs the family's level (p {fmt_p(e)} adjusted)"
        if e.low > 0.0 or e.high < 0.0
        else ""
    )
    runs = f"{e.spread.runs:.3g}" if e.spread is not None else "?"
    if e.needed_tasks is None or e.needed_tasks > e.n_tasks:
        if e.needed_tasks is None:
            need = f"needs more than {stats.MAX_HINT_TASKS} tasks at {runs} runs"
        else:
            more = e.needed_tasks - e.n_tasks
            need = f"needs about {more} more tasks ({e.needed_tasks} in all at {runs} runs)"
        need += f" for 80% power on {_resolve_phrase(e)} at its level p < {_level(e)}"
        if e.needed_runs is not None:
            need += f", or {e.needed_runs} runs on each of these {e.n_tasks} tasks"
        return f"{need}; {test}" if test else need
    if e.kind == "rate_diff" and -10.0 < e.low and e.high < 10.0:
        return "the interval rules out a 10-point difference"
    if (
        e.kind == "ratio"
        and -100.0 * stats.RATIO_RESOLVE / (1 + stats.RATIO_RESOLVE) < e.low
        and e.high < 100.0 * stats.RATIO_RESOLVE
    ):
        return "the interval rules out a 10% change"
    if test:
        return test
    return f"the interval still holds no change with {e.n_tasks} tasks"


def is_decided(e: Effect) -> bool:
    return e.n_tasks > 0 and e.tested and e.verdict != stats.UNDECIDED


def decided_sentence(effects: Sequence[Effect]) -> str:
    """ "Decided: pass better (+25.0 pp), cost worse (+42.4%)." for one arm's effects."""
    decided = [
        f"{METRIC_NAMES.get(e.metric, e.metric)} {e.verdict} ({fmt_estimate(e)})"
        for e in effects
        if is_decided(e)
    ]
    return "Decided: " + (", ".join(decided) if decided else "nothing yet") + "."


def undecided_clauses(effects: Sequence[Effect]) -> list[str]:
    """One clause per reason, metrics that share it together: "loc, cost: the interval rules
    out a 10% change"."""
    reasons: dict[str, list[str]] = {}
    for e in effects:
        if not is_decided(e):
            reasons.setdefault(why_undecided(e), []).append(METRIC_NAMES.get(e.metric, e.metric))
    return [f"{', '.join(names)}: {reason}" for reason, names in reasons.items()]


# --- the rows behind a block -----------------------------------------------------------------


def arms_of(records: Iterable[Record]) -> list[str]:
    """Arm names with at least one record, valid or not, baseline first: an arm whose cells
    all failed is still an arm, and its block says so."""
    return report.arm_order(str(r.get("arm")) for r in records)


def arm_verdicts(
    records: Sequence[Record],
    baseline: str = "baseline",
    *,
    primary: str = stats.PRIMARY,
    family: str = "model",
) -> list[ArmVerdict]:
    """stats.verdicts, but only where there is something to compare: [] when the baseline arm or
    every other arm is missing. Raises ValueError for an unknown primary or family."""
    arms = arms_of(records)
    if baseline not in arms or len(arms) < 2:
        return []
    return stats.verdicts(records, baseline, primary=primary, family=family)


@dataclass(frozen=True)
class RunVerdicts:
    """A run's verdict rows, the records they came from, and how a sequential design went."""

    rows: list[ArmVerdict]
    records: list[Record]
    looks: list[str]


def run_verdicts(
    records: Sequence[Record],
    run: Mapping[str, Any],
    baseline: str = "baseline",
    *,
    primary: str = stats.PRIMARY,
    family: str = "model",
) -> RunVerdicts:
    """The verdicts of one run dir: a sequential run's at the look where it stopped (over the
    runs that look saw, its primary decided by the sequence), else the fixed design's. Raises
    ValueError for a malformed design in run.json."""
    design = sequential.from_run_json(run)
    if design is None or not design[1]:
        return RunVerdicts(arm_verdicts(records, baseline, primary=primary, family=family), list(records), [])
    plan, looks = design
    seen = sequential.seen_by(records, looks)
    return RunVerdicts(
        sequential.final_verdicts(seen, plan, looks), seen, sequential.describe_looks(looks, plan)
    )


def _pass_counts(records: Sequence[Record]) -> dict[tuple[str, str], tuple[int, int, int]]:
    """(model, arm) -> (passed cells, valid cells, invalid cells) over the latest attempt of
    every cell."""
    counts: dict[tuple[str, str], tuple[int, int, int]] = {}
    for rec in latest(records):
        if not is_scored(rec):
            continue  # an open task has nothing to pass
        key = (str(rec.get("model")), str(rec.get("arm")))
        k, n, bad = counts.get(key, (0, 0, 0))
        if is_valid(rec):
            counts[key] = (k + int(passed(rec)), n + 1, bad)
        else:
            counts[key] = (k, n, bad + 1)
    return counts


def _rate_text(k: int, n: int) -> str:
    ci = stats.wilson(k, n)
    return f"{k}/{n} ({100 * k / n:.0f}%, Wilson {100 * ci.low:.0f}-{100 * ci.high:.0f}%)"


def _pass_line(row: ArmVerdict, counts: Mapping[tuple[str, str], tuple[int, int, int]]) -> str:
    parts = []
    for arm in (row["arm"], row["baseline"]):
        k, n, bad = counts.get((row["model"], arm), (0, 0, 0))
        parts.append(f"{arm} {_rate_text(k, n)}" if n else f"{arm} no valid cell ({bad} invalid)")
    return "cells passed: " + ", ".join(parts)


def _title(row: ArmVerdict) -> str:
    return f"{row['arm']} vs {row['baseline']} ({row['model']})"


TWIN_NOTE = "an A/A twin (the baseline's content): its verdict is the run's measured noise floor"


def _paired_tasks(row: ArmVerdict) -> int:
    return max((e.n_tasks for e in row["effects"]), default=0)


def _fmt_level(level: float) -> str:
    return f"{level:.2g}"


def procedure_line(row: ArmVerdict) -> str:
    """Which metric is primary and at what level, what the rest share, and how levels move:
    "procedure: pass first at p < 0.045; loc, cost, tokens, time share p < 0.005 (weighted
    Holm: a decided metric hands its level on)"."""
    tested = [e for e in row["effects"] if e.tested and e.n_tasks > 0]
    primary = METRIC_NAMES.get(row["primary"], row["primary"])
    first = next((e for e in tested if e.primary), None)
    rest = [e for e in tested if not e.primary]
    hand_on = "weighted Holm: a decided metric hands its level on"
    if first is None and not rest:
        return f"procedure: {primary} first; no metric has a paired task to test"
    if first is None:
        return (
            f"procedure: {primary} first, but it has no paired task; "
            f"{_names(rest)} share p < {_fmt_level(sum(e.level for e in rest))} ({hand_on})"
        )
    head = f"procedure: {primary} first at p < {_fmt_level(first.level)}"
    if not rest:
        return head
    return f"{head}; {_names(rest)} share p < {_fmt_level(sum(e.level for e in rest))} ({hand_on})"


def _names(effects: Sequence[Effect]) -> str:
    return ", ".join(METRIC_NAMES.get(e.metric, e.metric) for e in effects)


def family_line(row: ArmVerdict) -> str:
    return row["family"].describe()


def _effect_text(e: Effect) -> str:
    return f"{fmt_estimate(e)} {fmt_interval(e)}" if e.n_tasks else "no paired task"


def bound_line(row: ArmVerdict, b: Bound) -> str:
    """One line: both sides' invalid shares, the metric with the invalid cells filled in both
    extreme ways, and the rule."""
    name = METRIC_NAMES.get(b.metric, b.metric)
    arm, base = row["arm"], row["baseline"]
    share = (
        f"{arm} {_share(b.arm_invalid, b.arm_cells)} invalid, {base} {_share(b.base_invalid, b.base_cells)}"
    )
    return (
        f"missing cells bounded: {share}; {name} with {arm}'s invalid cells failed and {base}'s "
        f"passed {_effect_text(b.worst)}, the reverse {_effect_text(b.best)}; better or worse only "
        f"where that bound agrees (the interval shown spans all three)"
    )


def _share(k: int, n: int) -> str:
    return f"{100 * k / n:.0f}% ({k} of {n})" if n else "no cell"


def reliability_lines(row: ArmVerdict) -> list[str]:
    """pass^k and pass@k of the arm and the baseline, with Wilson intervals over tasks, a line
    each; none below 2 runs per task (then both are the pass rate)."""
    return [
        "reliability of " + reliability.describe(a, row["reliability"][a])
        for a in (row["arm"], row["baseline"])
        if a in row["reliability"]
    ]


def floor_line(row: ArmVerdict) -> str | None:
    """The smallest pass and cost change this comparison could decide with 80% power."""
    effects = {e.metric: e for e in row["effects"]}
    parts = []
    for metric, unit in (("pass", " pp"), ("cost_usd", "%")):
        e = effects.get(metric)
        if e is None or not e.tested:
            continue
        floor = noise.effect_floor(e)
        # 0: no spread at all, so any change that moved every task would do; not a floor to show.
        if floor is not None and 0 < floor < math.inf:
            parts.append(f"{METRIC_NAMES[metric]} ±{floor:.0f}{unit}")
    if not parts:
        return None
    return "noise floor (the smallest change decidable here with 80% power at these levels): " + ", ".join(
        parts
    )


def header_lines(row: ArmVerdict) -> list[str]:
    """What a block says before its table: the procedure and the family (and a twin's role)."""
    lines = [procedure_line(row), family_line(row)]
    if row["twin"]:
        lines.insert(0, TWIN_NOTE)
    return lines


def footer_lines(row: ArmVerdict) -> list[str]:
    """What a block says after its sentences: the missing cells' bound, reliability, floor."""
    lines = [bound_line(row, b) for b in row["bounds"]]
    if row["twin"] and any(is_decided(e) for e in row["effects"]):
        lines.append(
            f"warning: the A/A twin {row['arm']} decided something although nothing differs: a chance "
            f"of at most 5% per run, or the run is not stable (the model or the service changed "
            f"between cells)"
        )
    lines += reliability_lines(row)
    floor = floor_line(row)
    if floor is not None:
        lines.append(floor)
    return lines


# --- text ---------------------------------------------------------------------------------------

INTRO = (
    "Verdicts: paired by task (the mean of its runs), 95% intervals; rates in percentage "
    "points, loc/cost/tokens/time as % change; the primary metric is tested first at most of "
    "the level, the rest share the remainder (weighted Holm, p adjusted over the family each "
    "block names); correct and safe are pass's breakdown."
)


def render_rows(rows: Sequence[ArmVerdict], records: Sequence[Record]) -> str:
    """The text blocks for verdict rows (from stats.verdicts or compare_verdicts)."""
    if not rows:
        return ""
    counts = _pass_counts(records)
    lines = [INTRO]
    for row in rows:
        lines.append("")
        n = _paired_tasks(row)
        if n == 0:
            lines.append(f"{_title(row)}: no task has valid cells of both; nothing to compare")
            lines.append("  " + _pass_line(row, counts))
            lines += ["  " + note for note in row.get("notes", [])]
            continue
        lines.append(f"{_title(row)}: {n} paired tasks")
        lines += ["  " + line for line in header_lines(row)]
        lines.append("  " + _pass_line(row, counts))
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
        lines += ["  " + line for line in footer_lines(row)]
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
) -> str:
    """Text verdict blocks, one per (model, arm other than `baseline`); "" when there is no
    baseline or no other arm in the records."""
    return render_rows(arm_verdicts(records, baseline, primary=primary, family=family), records)


# --- Markdown -----------------------------------------------------------------------------------


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def _md_bold_lead(sentence: str) -> str:
    lead, _, rest = sentence.partition(": ")
    return f"**{lead}:** {_md_escape(rest)}"


def render_rows_markdown(
    rows: Sequence[ArmVerdict], records: Sequence[Record], heading: str = "ponybench verdict"
) -> str:
    if not rows:
        return ""
    counts = _pass_counts(records)
    lines = [f"### {heading}", "", INTRO]
    for row in rows:
        lines += ["", f"#### {_md_escape(_title(row))}", ""]
        n = _paired_tasks(row)
        if n == 0:
            lines.append("No task has valid cells of both; nothing to compare.")
            lines += [""] + [f"- {_md_escape(note)}" for note in row.get("notes", [])]
            continue
        lines += [f"{n} paired tasks; {_md_escape(_pass_line(row, counts))}.", ""]
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
        footer = footer_lines(row)
        if footer:
            lines += [""] + [f"- {_md_escape(line)}" for line in footer]
        notes = row.get("notes", [])
        if notes:
            lines += ["", "**Left out and warnings:**", ""] + [f"- {_md_escape(note)}" for note in notes]
    return "\n".join(lines)


def render_verdicts_markdown(
    records: Sequence[Record],
    baseline: str = "baseline",
    *,
    primary: str = stats.PRIMARY,
    family: str = "model",
) -> str:
    """The verdict as Markdown (a heading, then a table per model and arm) to paste into a pull
    request; "" when there is nothing to compare."""
    return render_rows_markdown(arm_verdicts(records, baseline, primary=primary, family=family), records)


# --- two runs -----------------------------------------------------------------------------------


def _cell(rec: Record) -> tuple[str, str, str, str]:
    return (str(rec.get("task")), str(rec.get("model")), str(rec.get("arm")), str(rec.get("run")))


def compare_runs(
    base_records: Sequence[Record],
    cand_records: Sequence[Record],
    *,
    base_label: str = "base",
    cand_label: str = "candidate",
) -> list[Record]:
    """Records of two runs relabeled into one comparable set.

    For every (model, arm) both runs measured, the base run's cells become arm `base_label` and
    the candidate run's cells arm `cand_label`, under the model "<model>, arm <arm>"; cells are
    paired by (task, run) within it. Only the shared grid is kept: cells whose (task, model, arm)
    only one run has are dropped (`grid_notes` says how many). The original model and arm stay
    in the `compare_model` / `compare_arm` fields.

    Raises ValueError when the labels coincide or the runs share no task / no (model, arm).
    """
    if base_label == cand_label:
        raise ValueError(f"the two runs need different labels, both are {base_label!r}")
    base_tasks = {_cell(r)[0] for r in base_records}
    cand_tasks = {_cell(r)[0] for r in cand_records}
    if not base_tasks & cand_tasks:
        raise ValueError(
            f"the runs share no task: {base_label} has {_listing(base_tasks)}, "
            f"{cand_label} has {_listing(cand_tasks)}"
        )
    shared = {_cell(r)[:3] for r in base_records} & {_cell(r)[:3] for r in cand_records}
    if not shared:
        base_arms = {_cell(r)[1:3] for r in base_records}
        cand_arms = {_cell(r)[1:3] for r in cand_records}
        raise ValueError(
            f"the runs share no (model, arm): {base_label} has {_listing(_pairs(base_arms))}, "
            f"{cand_label} has {_listing(_pairs(cand_arms))}"
        )
    out: list[Record] = []
    for label, records in ((base_label, base_records), (cand_label, cand_records)):
        for rec in records:
            task, model, arm, _run = _cell(rec)
            if (task, model, arm) not in shared:
                continue
            relabeled = Record(**rec)
            relabeled.update(
                Record(
                    model=f"{model}, arm {arm}",
                    arm=label,
                    compare_model=model,
                    compare_arm=arm,
                    compare_run=label,
                )
            )
            out.append(relabeled)
    return out


def _pairs(pairs: Iterable[tuple[str, str]]) -> set[str]:
    return {f"{arm} ({model})" for model, arm in pairs}


def _listing(names: Iterable[str], limit: int = 8) -> str:
    items = sorted(names)
    if not items:
        return "nothing"
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def grid_notes(
    base_records: Sequence[Record], cand_records: Sequence[Record], *, base_label: str, cand_label: str
) -> list[str]:
    """What differs between the two runs' grids, in words ([] when they match)."""
    base = {_cell(r) for r in base_records}
    cand = {_cell(r) for r in cand_records}
    notes = []
    if base - cand:
        notes.append(
            f"{len(base - cand)} cells only in {base_label} (tasks {_listing({c[0] for c in base - cand})})"
        )
    if cand - base:
        notes.append(
            f"{len(cand - base)} cells only in {cand_label} (tasks {_listing({c[0] for c in cand - base})})"
        )
    return notes


def compare_verdicts(
    base_records: Sequence[Record],
    cand_records: Sequence[Record],
    *,
    base_label: str = "base",
    cand_label: str = "candidate",
    primary: str = stats.PRIMARY,
    family: str = "model",
) -> tuple[list[ArmVerdict], list[Record]]:
    """The candidate run against the base run, per shared (model, arm): the verdict rows and
    the relabeled records they came from. The family is every arm of one original model (or,
    with family="run", every comparison), as within one run; no comparison is an A/A twin here
    (an arm unchanged between the runs is what the comparison asks about)."""
    records = compare_runs(base_records, cand_records, base_label=base_label, cand_label=cand_label)
    rows = stats.verdicts(records, baseline=base_label, primary=primary, family=family, twins=False)
    source = {str(r["model"]): str(r[SOURCE_MODEL]) for r in records}
    families: dict[tuple[str, str], list[ArmVerdict]] = {}
    for row in rows:
        if family == "run":
            key = ("run", "every arm and model of both runs")
        else:
            model = source.get(row["model"], row["model"])
            key = ("model", f"every arm of {model}")
        families.setdefault(key, []).append(row)
    stats.adjust(families.values(), labels=list(families))
    return rows, records


# --- the gate -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GateOutcome:
    """One rule for one arm: failed, passed or untested (stats.gate_outcome)."""

    rule: str
    row: ArmVerdict
    effect: Effect | None
    status: str

    def describe(self) -> str:
        e = self.effect
        if e is None or e.n_tasks == 0:
            return f"{self.rule}: {_title(self.row)}: no paired task measured it"
        rule = stats.parse_gate(self.rule)[0]
        margin = f"{rule.margin:+g}{_unit(e)}"
        shown = f"{METRIC_NAMES.get(e.metric, e.metric)} {fmt_estimate(e)} {fmt_interval(e)}"
        head = f"{self.rule}: {_title(self.row)}: {shown}"
        if self.status == stats.FAIL:
            side = "above" if e.lower_is_better else "below"
            return f"{head}, the whole interval is {side} {margin}"
        if self.status == stats.UNTESTED:
            if e.zero_spread:
                return (
                    f"{head}: every one of {e.n_tasks} tasks moved by the same amount, too few for "
                    f"the sign test ({stats.MIN_SIGN_TASKS}); no interval to test {margin} with"
                )
            return f"{head}: {e.n_tasks} paired task(s), no interval to test {margin} with"
        return f"{head}, not wholly beyond {margin}"


# Kept under its old name: the failures are what most callers want.
GateFailure = GateOutcome


def gate_report(rows: Sequence[ArmVerdict], rules: str) -> list[GateOutcome]:
    """Every (rule, arm) with its outcome, in rule order. Each rule is tested alone: the
    verdict's test against the rule's margin at 2.5 % one-sided, no adjustment across rules.
    Raises ValueError naming a malformed rule (stats.parse_gate)."""
    outcomes: list[GateOutcome] = []
    for rule in stats.parse_gate(rules):
        for row in rows:
            effect = next((e for e in row["effects"] if e.metric == rule.metric), None)
            status = stats.UNTESTED if effect is None else stats.gate_outcome(effect, rule)
            outcomes.append(GateOutcome(rule=rule.text, row=row, effect=effect, status=status))
    return outcomes


def check_gate(rows: Sequence[ArmVerdict], rules: str) -> list[GateOutcome]:
    """Every (rule, arm) where the arm is worse than the rule's margin with confidence, in rule
    order. Raises ValueError naming a malformed rule (stats.parse_gate)."""
    return [o for o in gate_report(rows, rules) if o.status == stats.FAIL]
