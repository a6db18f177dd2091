"""The answer the report leads with: per arm and model, the verdict on the primary endpoint
(better, worse or undecided, its interval, and why), what else was decided, and what the arm
brings. Real models come first; the scripted offline models (`offline-*`) after them, labelled:
their cells prove the pipeline and that the arm loads, never what the arm is worth.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_ponybench.analysis import stats, verdict
from pytest_ponybench.core.endpoint import is_offline

__all__ = ["OFFLINE_NOTE", "answers", "model_order", "why_decided"]

OFFLINE_NOTE = (
    "a scripted offline model: its cells prove the pipeline and that each arm loads, "
    "not what the arm is worth (a real model measures that)"
)


def model_order(models: Iterable[str]) -> list[str]:
    """Real models first, then the scripted offline ones, each group by name."""
    return sorted(set(models), key=lambda m: (is_offline(m), m))


def why_decided(e: stats.Effect) -> str:
    """Why a decided effect is decided, in the words of its test."""
    side = "above" if e.low > 0 else "below"
    return (
        f"its 95% interval lies wholly {side} no change, and p {verdict.fmt_p(e)} "
        f"(adjusted over the family) is below 5%"
    )


def _primary(effects: Sequence[stats.Effect], primary: str) -> stats.Effect | None:
    """The block's pre-declared primary effect (flagged, else named, else the first)."""
    found = [e for e in effects if e.primary] or [e for e in effects if e.metric == primary] or list(effects)
    return found[0] if found else None


def _answer(row: stats.ArmVerdict, brought: str) -> dict[str, Any]:
    effects = row["effects"]
    main = _primary(effects, row["primary"])
    out: dict[str, Any] = {
        "title": f"{row['arm']} vs {row['baseline']}",
        "arm": row["arm"],
        "model": row["model"],
        "offline": is_offline(row["model"]),
        "brings": brought,
        "also": [],
        "word": "no data",
        "metric": row["primary"],
        "change": "-",
        "interval": "-",
        "tasks": 0,
        "p": "-",
        "why": "nothing was measured",
    }
    if main is None:
        return out
    decided = verdict.is_decided(main)
    out.update(
        word=verdict.word(main),
        metric=verdict.METRIC_NAMES.get(main.metric, main.metric),
        change=verdict.fmt_estimate(main),
        interval=verdict.fmt_interval(main),
        tasks=main.n_tasks,
        p=verdict.fmt_p(main),
        why=why_decided(main) if decided else verdict.why_undecided(main),
        also=[
            f"{verdict.METRIC_NAMES.get(e.metric, e.metric)} {e.verdict} "
            f"({verdict.fmt_estimate(e)}, {verdict.fmt_interval(e)})"
            for e in effects
            if e is not main and verdict.is_decided(e)
        ],
    )
    return out


def answers(
    rows: Sequence[stats.ArmVerdict], arm_order: Sequence[str], brings: Mapping[str, str]
) -> list[dict[str, Any]]:
    """One answer per verdict row: real models first, offline ones after; arms in the
    report's order within a model."""
    rank = {a: i for i, a in enumerate(arm_order)}
    models = {m: i for i, m in enumerate(model_order(r["model"] for r in rows))}
    ordered = sorted(rows, key=lambda r: (models[r["model"]], rank.get(r["arm"], len(rank)), r["arm"]))
    return [_answer(r, brings.get(r["arm"], "")) for r in ordered]
