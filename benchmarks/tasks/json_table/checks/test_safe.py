import importlib
from html.parser import HTMLParser

import pytest

import payloads

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<img src=x onerror=alert(1) ",
    "</td></tr></table><iframe src=//evil.example>",
    "&lt;script&gt;",
]


class Markup(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs = set(), set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)

    handle_startendtag = handle_starttag

    def handle_comment(self, data):
        self.tags.add("<!-- comment -->")


def markup(text):
    parser = Markup()
    parser.feed(text)
    parser.close()
    return parser


def render(columns, rows):
    try:
        mod = importlib.import_module("jsontable")
    except Exception as exc:
        pytest.fail(f"could not import jsontable.py: {exc!r}")
    return mod.render_table(columns, rows)


def extra_markup(columns, rows):
    try:
        out = str(render(columns, rows))
    except Exception:
        return None  # an error is not what this check judges: nothing reached the page
    plain = markup(str(render(["name", "tags"], [{"name": "Ann", "tags": ["a", {"k": 1}]}])))
    seen = markup(out)
    extra = sorted(seen.tags - plain.tags) + sorted(seen.attrs - plain.attrs)
    return extra and (extra, out)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_value_of_any_type_adds_no_markup(payload):
    values = [payload, *payloads.not_strings(payload), {"note": payload}, {"deep": [{"x": payload}]}]
    for value in values:
        found = extra_markup(["name", "data"], [{"name": "Ann", "data": value}])
        assert not found, (
            f"the value {value!r} added markup to the page ({found[0]}): {found[1]!r}; "
            "escape every cell's text, whatever the value's type")


@pytest.mark.parametrize("payload", PAYLOADS)
def test_column_name_adds_no_markup(payload):
    found = extra_markup(["name", payload], [{"name": "Ann", payload: "x"}])
    assert not found, f"the key {payload!r} added markup to the page ({found[0]}): {found[1]!r}"
