"""The report's plots, written as SVG text at build time.

SVG at build time keeps the page free of plotting code: nothing to download or to run when it
opens, and each figure is a few kilobytes whatever the number of cells (the points are per task,
the boxes per arm). The SVG is written here, element by element, rather than by a plotting
library: three small panels need axes, ticks, points, error bars and boxes, and a library
(matplotlib, with its imports and its layout engine) cost about a second of CPU per report.
Every name (an arm's, a task's) is text, escaped, drawn as written. Each point of the cost plot
is a link to its task's cells in the table.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from pytest_ponybench.analysis import stats
from pytest_ponybench.core.records import Record, is_scored, is_valid, number, passed

__all__ = ["COLOURS", "colour", "model_figure", "nice_ticks", "quartiles"]

# Colour-blind safe (Okabe-Ito), baseline first.
COLOURS = ("#555555", "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442")
INK, GREY = "#24292f", "#57606a"
WIDTH, HEIGHT = 760, 250  # in points, drawn at 4/3 pixels each (a 9 pt text is 12 px)
FONT = 'font-family="DejaVu Sans, Helvetica, Arial, sans-serif"'
PERCENT_TICKS = (0.0, 20.0, 40.0, 60.0, 80.0, 100.0)


def colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def _num(v: float) -> str:
    """A coordinate: two decimals at most, no trailing zeros."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


def nice_ticks(lo: float, hi: float, most: int = 6) -> list[float]:
    """Round tick values within [lo, hi], at most `most` of them, a step of 1, 2, 2.5 or 5 times
    a power of ten."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo] if math.isfinite(lo) else []
    raw = (hi - lo) / max(most, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step - 1e-9)
    ticks = []
    k = first
    while (v := k * step) <= hi + step * 1e-9:
        ticks.append(round(v, 12))
        k += 1
    return ticks


def _tick_label(v: float, ticks: Sequence[float]) -> str:
    """Enough decimals to tell the ticks apart, and no more."""
    step = ticks[1] - ticks[0] if len(ticks) > 1 else abs(v) or 1.0
    power = math.floor(math.log10(step) + 1e-9)
    halves = round(step / 10**power, 6) == 2.5  # 2.5, 0.25: one decimal more than the power says
    return f"{v:.{max(0, -power + halves)}f}"


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """The first quartile, the median and the third, linearly interpolated between the sorted
    values (as numpy's percentile does by default)."""
    xs = sorted(values)

    def at(q: float) -> float:
        pos = q * (len(xs) - 1)
        low = math.floor(pos)
        high = min(low + 1, len(xs) - 1)
        return xs[low] + (xs[high] - xs[low]) * (pos - low)

    return at(0.25), at(0.5), at(0.75)


@dataclass
class _Panel:
    """One plot area: data limits mapped onto a box of the figure, and the SVG drawn into it."""

    left: float
    top: float
    width: float
    height: float
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    out: list[str] = field(default_factory=list)

    def x(self, v: float) -> float:
        lo, hi = self.xlim
        return self.left + (v - lo) / (hi - lo) * self.width

    def y(self, v: float) -> float:
        lo, hi = self.ylim
        return self.top + self.height - (v - lo) / (hi - lo) * self.height

    @property
    def bottom(self) -> float:
        return self.top + self.height

    def text(
        self, x: float, y: float, words: str, *, anchor: str = "start", size: float = 9, extra: str = ""
    ) -> None:
        self.out.append(
            f'<text x="{_num(x)}" y="{_num(y)}" font-size="{size}" text-anchor="{anchor}"{extra}>'
            f"{escape(words)}</text>"
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK, width: float = 0.8) -> None:
        self.out.append(
            f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
            f'stroke="{stroke}" stroke-width="{width}"/>'
        )

    def note(self, words: str) -> None:
        """A grey line in the middle of an empty plot, saying why it is empty."""
        self.text(
            self.left + self.width / 2,
            self.top + self.height / 2,
            words,
            anchor="middle",
            extra=f' fill="{GREY}"',
        )

    def frame(self, title: str, ylabel: str, yticks: Sequence[float]) -> None:
        """The left and bottom spines, the y axis's ticks and label, and the title."""
        self.line(self.left, self.top, self.left, self.bottom)
        self.line(self.left, self.bottom, self.left + self.width, self.bottom)
        for v in yticks:
            y = self.y(v)
            self.line(self.left - 3.5, y, self.left, y)
            self.text(self.left - 6, y + 3, _tick_label(v, yticks), anchor="end", size=8)
        mid = self.top + self.height / 2
        self.text(
            self.left - 34,
            mid,
            ylabel,
            anchor="middle",
            size=8.5,
            extra=f' transform="rotate(-90 {_num(self.left - 34)} {_num(mid)})"',
        )
        self.text(self.left + self.width / 2, self.top - 8, title, anchor="middle", size=9)

    def categories(self, names: Sequence[str], at: Sequence[float]) -> None:
        """Category ticks on the x axis, their names slanted to fit."""
        for v, name in zip(at, names, strict=True):
            x = self.x(v)
            self.line(x, self.bottom, x, self.bottom + 3.5)
            y = self.bottom + 12
            self.text(
                x + 3,
                y,
                name,
                anchor="end",
                size=8,
                extra=f' transform="rotate(-20 {_num(x + 3)} {_num(y)})"',
            )


def model_figure(
    records: Sequence[Record], arms: Sequence[str], task_link: Mapping[str, str], key: str = ""
) -> str:
    """Three panels for one model: pass rate per arm (95 % Wilson), mean cost per cell against
    pass fraction (one point per task and arm), delivered LOC per arm (cells that wrote code).
    `key` (the model) keeps the figure's ids apart from another figure's on the same page."""
    by_arm: dict[str, list[Record]] = {a: [] for a in arms}
    for rec in records:
        # Pass rates and plots only where there was something to check (not open tasks).
        if is_valid(rec) and is_scored(rec) and str(rec.get("arm")) in by_arm:
            by_arm[str(rec.get("arm"))].append(rec)
    ids = "pb" + hashlib.sha256(key.encode()).hexdigest()[:8]
    top, height = 26, 150
    # Each panel: a left margin of 62 points (its y ticks and label), then its share of the rest.
    shares = (1.0, 1.4, 1.0)
    room = WIDTH - 3 * 62 - 10
    boxes, x = [], 0.0
    for share in shares:
        wide = room * share / sum(shares)
        boxes.append((x + 58, wide))
        x += 62 + wide
    n = len(by_arm)
    (pass_left, pass_w), (cost_left, cost_w), (loc_left, loc_w) = boxes
    body = [
        *_pass_panel(_Panel(pass_left, top, pass_w, height, (-0.6, n - 0.4), (-3, 103)), by_arm),
        *_cost_panel(_Panel(cost_left, top, cost_w, height, (0, 1), (-5, 105)), by_arm, task_link, ids),
        *_loc_panel(_Panel(loc_left, top, loc_w, height, (0.5, max(n, 1) + 0.5), (0, 1)), by_arm),
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{WIDTH * 4 // 3}" height="{HEIGHT * 4 // 3}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="pass rate, cost against pass, and LOC per arm">'
        f'<g {FONT} fill="{INK}">{"".join(body)}</g></svg>'
    )


def _pass_panel(p: _Panel, by_arm: Mapping[str, Sequence[Record]]) -> list[str]:
    p.frame("pass rate per arm", "cells passed, % (95% interval)", PERCENT_TICKS)
    for i, cells in enumerate(by_arm.values()):
        n = len(cells)
        if not n:
            continue
        k = sum(passed(c) for c in cells)
        ci = stats.wilson(k, n)
        x, c = p.x(i), colour(i)
        low, high = p.y(100 * ci.low), p.y(100 * ci.high)
        p.line(x, low, x, high, stroke=c, width=1.2)
        for end in (low, high):
            p.line(x - 4, end, x + 4, end, stroke=c, width=1.2)
        rate = p.y(100 * k / n)
        p.out.append(f'<circle cx="{_num(x)}" cy="{_num(rate)}" r="3.5" fill="{c}"/>')
        p.text(x + 8, rate + 3, f"{k}/{n}", size=8)
    p.categories(list(by_arm), list(range(len(by_arm))))
    return p.out


def _cost_panel(
    p: _Panel, by_arm: Mapping[str, Sequence[Record]], task_link: Mapping[str, str], ids: str
) -> list[str]:
    series: list[tuple[int, str, list[tuple[float, float, str]]]] = []
    for i, (arm, cells) in enumerate(by_arm.items()):
        tasks: dict[str, list[Record]] = {}
        for c in cells:
            tasks.setdefault(str(c.get("task")), []).append(c)
        points = []
        for task, group in sorted(tasks.items()):
            costs = [v for c in group if (v := number(c.get("cost_usd"))) is not None]
            if costs:
                rate = 100 * sum(passed(c) for c in group) / len(group)
                points.append((sum(costs) / len(costs), rate, task_link.get(task, "")))
        if points:
            series.append((i, arm, points))
    xs = [x for _, _, points in series for x, _, _ in points]
    lo, hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    pad = max((hi - lo) * 0.08, abs(hi) * 0.05, 1e-3)  # costs alike still get an axis to read
    p.xlim = (lo - pad, hi + pad)
    p.frame("cost against pass, per task", "cells passed, %", PERCENT_TICKS)
    xticks = nice_ticks(*p.xlim, most=5)
    for v in xticks:
        x = p.x(v)
        p.line(x, p.bottom, x, p.bottom + 3.5)
        p.text(x, p.bottom + 13, _tick_label(v, xticks), anchor="middle", size=8)
    p.text(
        p.left + p.width / 2,
        p.bottom + 27,
        "mean cost per cell, $ (one point per task)",
        anchor="middle",
        size=8.5,
    )
    if not series:
        p.note("no cost recorded")
        return p.out
    p.out.append("<defs>")
    for i, _, _ in series:
        p.out.append(f'<circle id="{ids}-m{i}" r="3.3" fill="{colour(i)}" fill-opacity="0.75"/>')
    p.out.append("</defs>")
    for i, _, points in series:
        for x, y, url in points:
            use = f'<use xlink:href="#{ids}-m{i}" x="{_num(p.x(x))}" y="{_num(p.y(y))}"/>'
            p.out.append(f'<a xlink:href="{escape(url)}">{use}</a>' if url else use)
    # The legend: a row under the axis's label, one swatch and name per arm.
    x, y = p.left, p.bottom + 41
    for i, arm, _ in series:
        wide = 22 + 5.2 * len(arm)
        if x > p.left and x + wide > p.left + p.width + 40:  # the row is full: the next one
            x, y = p.left, y + 12
        p.out.append(f'<circle cx="{_num(x + 4)}" cy="{_num(y)}" r="3.3" fill="{colour(i)}"/>')
        p.text(x + 11, y + 3, arm, size=8)
        x += wide
    return p.out


def _loc_panel(p: _Panel, by_arm: Mapping[str, Sequence[Record]]) -> list[str]:
    data = [
        [v for c in cells if (v := number(c.get("total_loc"))) is not None and v > 0]
        for cells in by_arm.values()
    ]
    every = [v for locs in data for v in locs]
    if every:  # else the axis stays 0-1
        lo, hi = min(every), max(every)
        pad = max((hi - lo) * 0.06, abs(hi) * 0.05, 1.0)
        p.ylim = (lo - pad, hi + pad)
    ticks = nice_ticks(*p.ylim, most=6)
    p.frame("LOC per arm (cells that wrote code)", "delivered LOC per cell", ticks)
    if not every:
        p.note("no code written")
    for i, locs in enumerate(data):
        if not locs:
            continue
        q1, med, q3 = quartiles(locs)
        reach = 1.5 * (q3 - q1)
        inside = [v for v in locs if q1 - reach <= v <= q3 + reach]
        x, c = p.x(i + 1), colour(i)
        half = p.width / (len(data) + 1) * 0.25
        for end, edge in ((min(inside), q1), (max(inside), q3)):
            p.line(x, p.y(end), x, p.y(edge))
            p.line(x - half / 2, p.y(end), x + half / 2, p.y(end))
        p.out.append(
            f'<rect x="{_num(x - half)}" y="{_num(p.y(q3))}" width="{_num(2 * half)}" '
            f'height="{_num(max(p.y(q1) - p.y(q3), 0.8))}" fill="{c}" fill-opacity="0.45" '
            f'stroke="{INK}" stroke-width="0.8"/>'
        )
        p.line(x - half, p.y(med), x + half, p.y(med), stroke="#E69F00" if c != "#E69F00" else INK, width=1.2)
        for v in sorted(set(locs) - set(inside)):
            p.out.append(
                f'<circle cx="{_num(x)}" cy="{_num(p.y(v))}" r="2.5" fill="none" '
                f'stroke="{INK}" stroke-width="0.8"/>'
            )
    p.categories(list(by_arm), [i + 1 for i in range(len(data))])
    return p.out
