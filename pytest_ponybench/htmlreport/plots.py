"""The report's plots, drawn with matplotlib into SVG text at build time.

SVG at build time keeps the page free of plotting code: nothing to download or to run when it
opens, and each figure is a few tens of kilobytes whatever the number of cells (the points are
per task, the boxes per arm). Text stays text (`svg.fonttype: none`) and math parsing is off, so
a `$` in a task or arm name is drawn as written. Each point of the cost plot is a link to its
task's cells in the table.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib
from matplotlib.figure import Figure

from pytest_ponybench.analysis import stats
from pytest_ponybench.core.records import Record, is_scored, is_valid, number, passed

__all__ = ["COLOURS", "STYLE", "colour", "model_figure"]

matplotlib.use("svg")

STYLE: dict[str, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "ponybench",
    "text.parse_math": False,
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
# Colour-blind safe (Okabe-Ito), baseline first.
COLOURS = ("#555555", "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442")


def colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def _svg(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    return text[text.index("<svg") :]  # drop the XML prolog and doctype: the SVG goes inline


def model_figure(records: Sequence[Record], arms: Sequence[str], task_link: Mapping[str, str]) -> str:
    """Three panels for one model: pass rate per arm (95 % Wilson), mean cost per cell against
    pass fraction (one point per task and arm), delivered LOC per arm (cells that wrote code)."""
    by_arm: dict[str, list[Record]] = {a: [] for a in arms}
    for rec in records:
        # Pass rates and plots only where there was something to check (not open tasks).
        if is_valid(rec) and is_scored(rec) and str(rec.get("arm")) in by_arm:
            by_arm[str(rec.get("arm"))].append(rec)
    with matplotlib.rc_context(STYLE):  # type: ignore[arg-type]  # the keys are rcParams
        fig = Figure(figsize=(10.5, 3.1), layout="constrained")
        ax_pass, ax_cost, ax_loc = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1, 1.4, 1]})
        _pass_panel(ax_pass, by_arm)
        _cost_panel(ax_cost, by_arm, task_link)
        _loc_panel(ax_loc, by_arm)
        return _svg(fig)


def _pass_panel(ax: Any, by_arm: Mapping[str, Sequence[Record]]) -> None:
    for i, cells in enumerate(by_arm.values()):
        n = len(cells)
        if not n:
            continue
        k = sum(passed(c) for c in cells)
        ci = stats.wilson(k, n)
        rate = 100 * k / n
        ax.errorbar(
            [i],
            [rate],
            yerr=[[rate - 100 * ci.low], [100 * ci.high - rate]],
            fmt="o",
            color=colour(i),
            capsize=4,
            markersize=6,
        )
        ax.annotate(f"{k}/{n}", (i, rate), textcoords="offset points", xytext=(8, -3), fontsize=8)
    ax.set_xticks(range(len(by_arm)), list(by_arm), rotation=20, ha="right")
    ax.set_xlim(-0.6, len(by_arm) - 0.4)
    ax.set_ylim(-3, 103)
    ax.set_ylabel("cells passed, % (95% interval)")
    ax.set_title("pass rate per arm", fontsize=9)


def _cost_panel(ax: Any, by_arm: Mapping[str, Sequence[Record]], task_link: Mapping[str, str]) -> None:
    drawn = False
    for i, (arm, cells) in enumerate(by_arm.items()):
        tasks: dict[str, list[Record]] = {}
        for c in cells:
            tasks.setdefault(str(c.get("task")), []).append(c)
        xs, ys, urls = [], [], []
        for task, group in sorted(tasks.items()):
            costs = [v for c in group if (v := number(c.get("cost_usd"))) is not None]
            if not costs:
                continue
            xs.append(sum(costs) / len(costs))
            ys.append(100 * sum(passed(c) for c in group) / len(group))
            urls.append(task_link.get(task, ""))
        if xs:
            points = ax.scatter(xs, ys, s=22, color=colour(i), alpha=0.75, label=arm, edgecolors="none")
            points.set_urls(urls)
            drawn = True
    ax.set_xlabel("mean cost per cell, $ (one point per task)")
    ax.set_ylabel("cells passed, %")
    ax.set_ylim(-5, 105)
    ax.set_title("cost against pass, per task", fontsize=9)
    if drawn:
        ax.legend(fontsize=8, frameon=False, loc="best")
    else:
        ax.text(0.5, 0.5, "no cost recorded", transform=ax.transAxes, ha="center", color="#57606a")


def _loc_panel(ax: Any, by_arm: Mapping[str, Sequence[Record]]) -> None:
    data, labels, colours = [], [], []
    for i, (arm, cells) in enumerate(by_arm.items()):
        locs = [v for c in cells if (v := number(c.get("total_loc"))) is not None and v > 0]
        data.append(locs or [math.nan])
        labels.append(arm)
        colours.append(colour(i))
    if data:
        boxes = ax.boxplot(data, patch_artist=True, widths=0.5, showfliers=True)
        for patch, c in zip(boxes["boxes"], colours, strict=True):
            patch.set_facecolor(c)
            patch.set_alpha(0.45)
        ax.set_xticks(range(1, len(labels) + 1), labels, rotation=20, ha="right")
    ax.set_ylabel("delivered LOC per cell")
    ax.set_title("LOC per arm (cells that wrote code)", fontsize=9)
