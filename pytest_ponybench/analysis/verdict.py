"""Verdict blocks (text and Markdown), the two-run comparison and the regression gate.

Pure functions over records: the statistics come from `stats`, this module decides how they are
read. A verdict block is one arm against the baseline for one model: per metric the estimate,
its 95 % interval, one word (better / worse / undecided) and the Holm-adjusted p, then what is
decided and, for the rest, why not: how many tasks would settle it, or what is ruled out.

Comparing two runs reuses the same machinery: `compare_runs` relabels the records so that the
first run's cells become the baseline arm and the second run's the candidate arm, separately for
every arm name both runs have (model "sonnet, arm mine"), and `compare_verdicts` puts the Holm
family back to "every comparison of one model", as in a single run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_ponybench.analysis import report, stats
from pytest_ponybench.analysis.stats import ArmVerdict, Effect
from pytest_ponybench.core.records import is_scored, is_valid, latest, passed

Record = Mapping[str, Any]

# Display names: the short names gate rules take (stats.METRIC_ALIASES), so what the table shows
# is what a user types after --fail-on.
METRIC_NAMES = {
    "pass": "pass",
    "correct": "correct",
    "safe": "safe",
    "total_loc": "loc",
    "cost_usd": "cost",
    "tokens": "tokens",
    "duration_ms": "time",
}
SOURCE_MODEL = "compare_model"  # record fields compare_runs adds, keeping what was relabeled
SOURCE_ARM = "compare_arm"
SOURCE_RUN = "compare_run"

HEADER = ("metric", "change", "95% interval", "verdict", "tasks", "p (Holm)")


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
    test: the paired t-test's power at the Holm level of the family (alpha / family size)."""
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
            f"{e.needed_tasks} tasks all one way at the Holm level p < {_level(e)}"
        )
    # An interval that excludes 0 next to "undecided": the test passed at 5 % but not at the
    # Holm level of the family; say so rather than look like a contradiction.
    test = (
        f"the 95% interval excludes 0, but a verdict needs the Holm level (p {fmt_p(e)} after Holm)"
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
        need += f" for 80% power on {_resolve_phrase(e)} at the Holm level p < {_level(e)}"
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


def arm_verdicts(records: Sequence[Record], baseline: str = "baseline") -> list[ArmVerdict]:
    """stats.verdicts, but only where there is something to compare: [] when the baseline arm or
    every other arm is missing."""
    arms = arms_of(records)
    if baseline not in arms or len(arms) < 2:
        return []
    return stats.verdicts(records, baseline)


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


def _paired_tasks(row: ArmVerdict) -> int:
    return max((e.n_tasks for e in row["effects"]), default=0)


# --- text ---------------------------------------------------------------------------------------

INTRO = (
    "Verdicts: paired by task (the mean of its runs), 95% intervals; rates in percentage "
    "points, loc/cost/tokens/time as % change; p adjusted with Holm over every arm and "
    "tested metric (pass, loc, cost, tokens, time) of a model; correct and safe are pass's breakdown."
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
        notes = row.get("notes", [])
        if notes:
            lines.append("  Left out and warnings:")
            lines += ["    " + note for note in notes]
    return "\n".join(lines)


def render_verdicts(records: Sequence[Record], baseline: str = "baseline") -> str:
    """Text verdict blocks, one per (model, arm other than `baseline`); "" when there is no
    baseline or no other arm in the records."""
    return render_rows(arm_verdicts(records, baseline), records)


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
        notes = row.get("notes", [])
        if notes:
            lines += ["", "**Left out and warnings:**", ""] + [f"- {_md_escape(note)}" for note in notes]
    return "\n".join(lines)


def render_verdicts_markdown(records: Sequence[Record], baseline: str = "baseline") -> str:
    """The verdict as Markdown (a heading, then a table per model and arm) to paste into a pull
    request; "" when there is nothing to compare."""
    return render_rows_markdown(arm_verdicts(records, baseline), records)


# --- two runs -----------------------------------------------------------------------------------


def _cell(rec: Record) -> tuple[str, str, str, str]:
    return (str(rec.get("task")), str(rec.get("model")), str(rec.get("arm")), str(rec.get("run")))


def compare_runs(
    base_records: Sequence[Record],
    cand_records: Sequence[Record],
    *,
    base_label: str = "base",
    cand_label: str = "candidate",
) -> list[dict[str, Any]]:
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
    out: list[dict[str, Any]] = []
    for label, records in ((base_label, base_records), (cand_label, cand_records)):
        for rec in records:
            task, model, arm, _run = _cell(rec)
            if (task, model, arm) not in shared:
                continue
            out.append(
                {
                    **rec,
                    "model": f"{model}, arm {arm}",
                    "arm": label,
                    SOURCE_MODEL: model,
                    SOURCE_ARM: arm,
                    SOURCE_RUN: label,
                }
            )
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
) -> tuple[list[ArmVerdict], list[dict[str, Any]]]:
    """The candidate run against the base run, per shared (model, arm): the verdict rows and
    the relabeled records they came from. Holm runs over every arm and metric of one original
    model, the same family as within one run."""
    records = compare_runs(base_records, cand_records, base_label=base_label, cand_label=cand_label)
    rows = stats.verdicts(records, baseline=base_label)
    source = {str(r["model"]): str(r[SOURCE_MODEL]) for r in records}
    families: dict[str, list[ArmVerdict]] = {}
    for row in rows:
        families.setdefault(source.get(row["model"], row["model"]), []).append(row)
    stats.adjust(families.values())
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
