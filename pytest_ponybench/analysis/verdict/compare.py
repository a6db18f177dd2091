"""Two runs compared: the first run's cells become the baseline arm and the second run's the
candidate arm, separately for every (model, arm) both runs have (model "sonnet, arm mine"), and
the family is put back to "every comparison of one model" (or of the run), as in a single run.
Only the shared grid is compared; `grid_notes` says what differs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from pytest_ponybench.analysis import stats
from pytest_ponybench.analysis.stats import ArmVerdict
from pytest_ponybench.core.records import Record

__all__ = ["SOURCE_ARM", "SOURCE_MODEL", "SOURCE_RUN", "compare_runs", "compare_verdicts", "grid_notes"]

# Record fields compare_runs adds, keeping what was relabeled.
SOURCE_MODEL: Final = "compare_model"
SOURCE_ARM: Final = "compare_arm"
SOURCE_RUN: Final = "compare_run"


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
    direction: str = stats.TWO_SIDED,
) -> tuple[list[ArmVerdict], list[Record]]:
    """The candidate run against the base run, per shared (model, arm): the verdict rows and
    the relabeled records they came from. The family is every arm of one original model (or,
    with family="run", every comparison), as within one run; no comparison is an A/A twin here
    (an arm unchanged between the runs is what the comparison asks about)."""
    records = compare_runs(base_records, cand_records, base_label=base_label, cand_label=cand_label)
    rows = stats.verdicts(
        records, baseline=base_label, primary=primary, family=family, twins=False, direction=direction
    )
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
