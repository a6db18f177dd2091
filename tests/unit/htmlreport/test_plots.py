"""The report's plots as SVG text: well-formed, every figure drawn from the records (a point per
task and arm with a cost, each a link to its task's cells, the pass counts, a box per arm that
wrote code), names drawn as written and escaped, ids apart per model; and the axis helpers."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from pytest_ponybench.core.records import Record
from pytest_ponybench.htmlreport.plots import model_figure, nice_ticks, quartiles
from tests.unit._support.records import report_record

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
HOSTILE_ARM = "<script>alert(1)</script> $x$ & co"


def _records() -> list[Record]:
    return [
        report_record("t1", "baseline", total_loc=10, cost_usd=0.5),
        report_record("t1", "baseline", run=1, correct=False, total_loc=14, cost_usd=0.7),
        report_record("t2", "baseline", total_loc=8, cost_usd=0.25),
        report_record("t1", HOSTILE_ARM, total_loc=12, cost_usd=0.75),
        report_record("t2", HOSTILE_ARM, correct=False, total_loc=90, cost_usd=0.5),
        report_record("t2", HOSTILE_ARM, run=1, valid=False, cost_usd=9.0),  # invalid: not drawn
    ]


def _figure(records: list[Record], key: str = "m") -> ET.Element:
    text = model_figure(records, ["baseline", HOSTILE_ARM], {"t1": "#task=t1", "t2": "#task=t2"}, key=key)
    assert "<script" not in text
    return ET.fromstring(text)


def _texts(svg: ET.Element) -> list[str]:
    return [t.text or "" for t in svg.iter(f"{SVG}text")]


def test_the_figure_is_drawn_from_the_records() -> None:
    svg = _figure(_records())
    texts = _texts(svg)
    for title in ("pass rate per arm", "cost against pass, per task", "LOC per arm (cells that wrote code)"):
        assert title in texts
    assert "2/3" in texts and "1/2" in texts  # passed/valid per arm: the invalid cell is left out
    assert texts.count(HOSTILE_ARM) == 3  # as written: both x axes and the legend
    # One point per task and arm with a cost, each a link to its task's cells.
    links = [str(a.get(XLINK)) for a in svg.iter(f"{SVG}a")]
    assert sorted(links) == ["#task=t1", "#task=t1", "#task=t2", "#task=t2"]
    for a in svg.iter(f"{SVG}a"):
        (use,) = list(a)
        assert use.tag == f"{SVG}use" and str(use.get(XLINK)).startswith("#pb")
    # A box per arm (both wrote code); the 90-line cell is within its arm's whiskers (two cells).
    assert len(list(svg.iter(f"{SVG}rect"))) == 2


def test_points_sit_where_their_values_say() -> None:
    svg = _figure(_records())
    ys = [float(list(a)[0].get("y") or 0) for a in svg.iter(f"{SVG}a")]
    xs = sorted(float(list(a)[0].get("x") or 0) for a in svg.iter(f"{SVG}a"))
    # t1's baseline passed half its cells, t2's all: higher on the page is a smaller y.
    heights = sorted({round(y, 2) for y in ys})
    assert len(heights) == 3  # 0 %, 50 %, 100 % of the cells passed
    assert heights[1] - heights[0] == pytest.approx(heights[2] - heights[1])
    # Costs 0.25, 0.5, 0.6 (t1 baseline's mean), 0.75: ordered left to right, spaced in proportion.
    assert (xs[2] - xs[1]) / (xs[1] - xs[0]) == pytest.approx(0.1 / 0.25)


def test_ids_are_apart_per_model_and_the_same_for_the_same_input() -> None:
    one, again, other = (
        model_figure(_records(), ["baseline"], {}, key="a"),
        model_figure(_records(), ["baseline"], {}, key="a"),
        model_figure(_records(), ["baseline"], {}, key="b"),
    )
    assert one == again
    ids = {e.get("id") for e in ET.fromstring(one).iter() if e.get("id")}
    assert ids and not ids & {e.get("id") for e in ET.fromstring(other).iter() if e.get("id")}


def test_a_figure_with_no_arm_is_still_drawn() -> None:
    svg = ET.fromstring(model_figure([], [], {}))
    assert "pass rate per arm" in _texts(svg) and not list(svg.iter(f"{SVG}a"))


def test_nothing_to_draw_says_so() -> None:
    svg = _figure([report_record("t1", "baseline")])  # no cost, no code written
    texts = _texts(svg)
    assert "no cost recorded" in texts and "no code written" in texts
    assert not list(svg.iter(f"{SVG}a")) and not list(svg.iter(f"{SVG}rect"))


@pytest.mark.parametrize(
    ("lo", "hi", "ticks"),
    [
        (-3, 103, [0, 25, 50, 75, 100]),
        (0.5, 9.7, [2, 4, 6, 8]),
        (0.0248, 0.0292, [0.025, 0.026, 0.027, 0.028, 0.029]),
        (100, 1300, [250, 500, 750, 1000, 1250]),
    ],
)
def test_ticks_are_round_and_within_the_axis(lo: float, hi: float, ticks: list[float]) -> None:
    assert nice_ticks(lo, hi, most=5) == pytest.approx(ticks)


def test_quartiles_interpolate_between_the_values() -> None:
    assert quartiles([1, 2, 3, 4]) == (1.75, 2.5, 3.25)
    assert quartiles([5]) == (5, 5, 5)
    assert quartiles([10, 1, 7]) == (4, 7, 8.5)
