import importlib
from html.parser import HTMLParser

import pytest


class Cells(HTMLParser):
    """The table's rows, each a list of (tag, text) cells, as a browser reads them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self._cell, self.stray = [], None, ""

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td") and self.rows:
            self._cell = [tag, ""]
            self.rows[-1].append(self._cell)

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1] += data
        else:
            self.stray += data.strip()  # text outside the cells, which a browser shows above the table

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self._cell = None


def table(columns, rows):
    try:
        mod = importlib.import_module("jsontable")
    except Exception as exc:
        pytest.fail(f"could not import jsontable.py: {exc!r}")
    out = mod.render_table(columns, rows)
    assert isinstance(out, str), f"render_table should return a str, got {out!r}"
    parser = Cells()
    parser.feed(out)
    parser.close()
    assert not parser.stray, f"render_table put text outside the cells: {parser.stray!r} (HTML: {out!r})"
    return out, [[tuple(c) for c in row] for row in parser.rows]


def test_header_and_rows():
    html, got = table(["id", "name"], [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}])
    want = [[("th", "id"), ("th", "name")], [("td", "1"), ("td", "Ann")], [("td", "2"), ("td", "Bob")]]
    assert got == want, f"render_table gave the cells {got}, expected {want} (HTML: {html!r})"
    assert html.lstrip().startswith("<table") and html.rstrip().endswith("</table>"), f"expected a <table>: {html!r}"


@pytest.mark.parametrize(("value", "shown"), [
    ("plain text", "plain text"),
    ("Tom & Jerry say \"hi\" it's x<b>y</b>", "Tom & Jerry say \"hi\" it's x<b>y</b>"),
    ("", ""),
    (3, "3"),
    (0, "0"),
    (-7, "-7"),
    (2.5, "2.5"),
    (1e21, "1e+21"),
    (True, "yes"),
    (False, "no"),
    (None, ""),
    ([1, "a", None], "1, a, "),
    ([True, [2, [False]], "x & y"], "yes, 2, no, x & y"),
    ([], ""),
    ({"city": "Zürich", "zip": 8001}, '{"city": "Zürich", "zip": 8001}'),
    ([{"a": None}], '{"a": null}'),
])
def test_value_is_shown_as_stated(value, shown):
    html, got = table(["v"], [{"v": value}])
    assert got[1:] == [[("td", shown)]], (
        f"the value {value!r} should show as {shown!r}; render_table gave the cells {got[1:]} (HTML: {html!r})")


def test_missing_key_is_an_empty_cell():
    html, got = table(["a", "b", "c"], [{"a": "x", "c": "z"}, {}])
    assert got[1:] == [[("td", "x"), ("td", ""), ("td", "z")], [("td", ""), ("td", ""), ("td", "")]], (
        f"a key the record does not have should give an empty cell: {got[1:]} (HTML: {html!r})")


def test_columns_in_the_given_order():
    html, got = table(["b", "a & c"], [{"a & c": 1, "b": 2}])
    assert got == [[("th", "b"), ("th", "a & c")], [("td", "2"), ("td", "1")]], (
        f"the columns should come in the given order: {got} (HTML: {html!r})")


def test_no_records():
    html, got = table(["id"], [])
    assert got == [[("th", "id")]], f"with no records the table holds just the header: {got} (HTML: {html!r})"
