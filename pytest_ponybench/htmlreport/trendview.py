"""Runs over time in the report: each series' pass rate per run as an SVG sparkline with its
intervals, the trend section of a run's report (when earlier comparable runs exist) and the
page of a folder's whole history (`ponybench report --history FOLDER`).

The figures are analysis/trend.py's; the runs come from the folder's history index
(store/history.py), read only: a report never writes the index.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from pytest_ponybench import __version__
from pytest_ponybench.analysis import trend
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.store import history
from pytest_ponybench.store.runinfo import RunInfoError

__all__ = ["HISTORY_HTML", "section", "sparkline_svg", "sparklines_svg", "write_history_page"]

HISTORY_HTML = "history.html"
_W, _H, _PAD = 160, 36, 4


def _x(i: int, n: int) -> float:
    return _PAD + (i * (_W - 2 * _PAD) / (n - 1) if n > 1 else (_W - 2 * _PAD) / 2)


def _y(rate: float) -> float:
    return _PAD + (1 - rate) * (_H - 2 * _PAD)


def _marks(rates: Sequence[trend.RunRate]) -> str:
    n = len(rates)
    out = []
    for i, r in enumerate(rates):  # the interval, then the line and the points over it
        if r.scored:
            x = _x(i, n)
            out.append(
                f'<line x1="{x:.1f}" y1="{_y(r.low):.1f}" x2="{x:.1f}" y2="{_y(r.high):.1f}" class="ci"/>'
            )
    points = [(_x(i, n), _y(r.rate)) for i, r in enumerate(rates) if r.rate is not None]
    if len(points) > 1:
        out.append(
            '<polyline class="rate" points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in points) + '"/>'
        )
    for (x, y), r in zip(points, [r for r in rates if r.rate is not None], strict=True):
        title = f"{r.run}: {r.passed}/{r.scored} passed, 95% interval {r.low:.0%}-{r.high:.0%}"
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5"><title>{escape(title)}</title></circle>')
    return "".join(out)


_STYLE = (
    "<style>.ci{stroke:#9ab;stroke-width:3;stroke-linecap:round}.rate{fill:none;stroke:#0072B2;"
    "stroke-width:1.5}circle{fill:#0072B2}.frame{fill:none;stroke:#ddd}text{font:11px sans-serif}</style>"
)


def sparkline_svg(rates: Sequence[trend.RunRate], name: str = "pass rate") -> str:
    """One series' pass rate per run, 0 at the bottom and 100 % at the top, each run's 95 %
    interval a bar behind its point."""
    label = escape(f"{name}: " + ", ".join(f"{r.passed}/{r.scored}" for r in rates))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="sparkline" width="{_W}" height="{_H}" '
        f'viewBox="0 0 {_W} {_H}" role="img" aria-label="{label}">{_STYLE}'
        f'<rect class="frame" x="0.5" y="0.5" width="{_W - 1}" height="{_H - 1}"/>{_marks(rates)}</svg>'
    )


def sparklines_svg(series: Sequence[trend.Series]) -> str:
    """Every series' sparkline in one SVG document, a row each with its name (`history --svg`)."""
    row, label_w = _H + 8, 320
    rows = []
    for i, s in enumerate(series):
        rates = [trend.rate(p, s.arm, s.model) for p in s.points]
        last = rates[-1]
        text = f"{s.name}: {last.passed}/{last.scored} in the last of {len(rates)} run(s)"
        y = i * row
        rows.append(
            f'<text x="0" y="{y + _H / 2 + 4:.0f}">{escape(text)}</text>'
            f'<g transform="translate({label_w},{y})"><rect class="frame" x="0.5" y="0.5" '
            f'width="{_W - 1}" height="{_H - 1}"/>{_marks(rates)}</g>'
        )
    height = max(row * len(series), row)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + _W}" height="{height}" '
        f'viewBox="0 0 {label_w + _W} {height}">{_STYLE}{"".join(rows)}</svg>\n'
    )


def _series_view(s: trend.Series, only: str | None = None) -> dict[str, Any]:
    rates = [trend.rate(p, s.arm, s.model) for p in s.points]
    versions = dict(s.versions)
    moves = [m for m in trend.moves(s) if only is None or m.run_after == only]
    return {
        "name": s.name,
        "arm": s.arm,
        "model": s.model,
        "why": "; ".join(s.why),
        "svg": Markup(sparkline_svg(rates, s.name)),
        "rates": [
            {
                "run": r.run,
                "started": r.stamp,
                "passed": f"{r.passed}/{r.scored}",
                "rate": "-" if r.rate is None else f"{r.rate:.0%}",
                "interval": f"{r.low:.0%}-{r.high:.0%}",
                "score": "-" if r.score is None else f"{r.score:.2f}",
                "version": versions.get(r.run, ""),
                "current": r.run == only,
            }
            for r in rates
        ],
        "moves": [
            {
                "task": m.task,
                "kind": m.kind,
                "text": f"{m.before[0]}/{m.before[1]} → {m.after[0]}/{m.after[1]} ({m.change:+.0f} pp)",
                "runs": f"{m.run_before} → {m.run_after}",
                "paired": "" if m.p is None else f"{m.lost} lost, {m.gained} gained, p {m.p:.2f}",
            }
            for m in moves
        ],
        "flaky": [
            {
                "task": f.task,
                "text": f"passed {f.passed} of {f.scored} over {f.runs} run(s)",
                "rate": f"{f.rate:.0%}",
            }
            for f in trend.flaky(s)
        ],
    }


def section(run_dir: Path) -> dict[str, Any] | None:
    """The trend section of a run's report: every series this run ends that has earlier runs
    (the folder's index, runs up to this one), with this run's tasks that moved since the run
    before; None when there is none (no index, no earlier comparable run)."""
    folder = run_dir.parent
    if not (folder / history.INDEX).is_file():
        return None
    try:
        index = history.read(folder)
        mine = history.entry_of(run_dir, folder)
    except (OSError, RunInfoError, PonybenchError):
        return None  # the report shows the run; a history it cannot read is left out
    earlier = [
        e
        for e in index.entries
        if e.run != mine.run and (e.point.stamp, e.run) < (mine.point.stamp, mine.run)
    ]
    if not earlier:
        return None
    found = trend.series([e.point for e in [*earlier, mine]])
    views = [_series_view(s, mine.run) for s in found if len(s.points) > 1 and s.points[-1].run == mine.run]
    if not views:
        return None
    return {"folder": str(folder), "runs": len(earlier) + 1, "series": views}


def _page_environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("pytest_ponybench.htmlreport", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )


def write_history_page(folder: Path, out: Path | None = None) -> Path:
    """The page of a folder's whole history (default FOLDER/history.html), read through its
    index (which gains the run dirs it lacks); PonybenchError when the folder holds no run."""
    index, problems = history.update(folder)
    if not index.entries:
        raise PonybenchError(
            f"{folder}: no finished run dir in it (a folder with run.json and results.jsonl)"
        )
    entries = list(index.entries)
    found = trend.series([e.point for e in entries])
    css = resources.files(__package__).joinpath("static", "report.css").read_text(encoding="utf-8")
    page = (
        _page_environment()
        .get_template("history.html.j2")
        .render(
            title=f"ponybench history: {folder.name or folder}",
            style=Markup(css),
            runs=[
                {
                    "run": e.run,
                    "started": e.started or "?",
                    "project": (e.project.sha or "-")[:12] + (" (dirty)" if e.project.dirty else ""),
                    "claude": e.claude_version or "?",
                    "envelope": history.envelope_text(e.envelope),
                }
                for e in entries
            ],
            series=[_series_view(s) for s in found],
            problems=problems,
            version=__version__,
        )
    )
    target = out if out is not None else folder / HISTORY_HTML
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(target)
    return target
