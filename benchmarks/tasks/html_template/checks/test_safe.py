import json
from html.parser import HTMLParser

import pytest

import payloads


class Shape(HTMLParser):
    """The element structure of a page: tags and attribute names, in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items = []

    def handle_starttag(self, tag, attrs):
        self.items.append(("start", tag, tuple(sorted(name for name, _ in attrs))))

    def handle_startendtag(self, tag, attrs):
        self.items.append(("start", tag, tuple(sorted(name for name, _ in attrs))))

    def handle_endtag(self, tag):
        self.items.append(("end", tag))

    def handle_comment(self, data):
        self.items.append(("comment",))


def shape(text):
    parser = Shape()
    parser.feed(text)
    parser.close()
    return parser.items


def render_all(js, cases):
    got = js("template.js", f"""
        const render = pick('render');
        return {json.dumps(cases)}.map(([t, d]) => {{
            const r = attempt(() => render(t, d));
            return r.ok && typeof r.value === "string" ? r.value : null;
        }});
    """)
    return got


TEMPLATES = [
    '<p class="bio">{{v}}</p>',
    '<a href="/u/1" title="{{v}}">x</a>',
    "<img alt='{{v}}' src=\"/a.png\">",
    '<textarea name="t">{{v}}</textarea>',
    "<div data-a=\"{{v}}\" data-b='{{v}}'>{{v}}</div>",
]

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '"><script>alert(1)</script>',
    '" onmouseover="alert(1)',
    "' onmouseover='alert(1)",
    "'><svg onload=alert(1)>",
    "</textarea><script>alert(1)</script>",
    "<!-- x",
]


@pytest.mark.parametrize("template", TEMPLATES, ids=["text", "dq_attr", "sq_attr", "textarea", "mixed"])
def test_user_data_never_becomes_markup(js, template):
    cases = [[template, {"v": "harmless"}]] + [[template, {"v": p}] for p in PAYLOADS]
    outs = render_all(js, cases)
    expected = shape(outs[0]) if outs[0] is not None else None
    for payload, out in zip(PAYLOADS, outs[1:]):
        if out is None:
            continue  # refusing to render is not an injection
        assert expected is None or shape(out) == expected, (
            f"rendering {template!r} with the value {payload!r} gave {out!r}: the value added or broke "
            "markup (XSS); escape &, <, >, \" and ' in every inserted value")


def test_a_value_cannot_pull_in_another_value_raw(js):
    template = "<p>{{name}}</p><p>{{bio}}</p>"
    outs = render_all(js, [[template, {"name": "{{{bio}}}", "bio": "<img src=x onerror=alert(1)>"}],
                           [template, {"name": "{{{ bio }}}", "bio": "<script>alert(1)</script>"}]])
    for out in outs:
        if out is None:
            continue
        assert shape(out) == [("start", "p", ()), ("end", "p"), ("start", "p", ()), ("end", "p")], (
            f"a user's name written as a raw placeholder pulled another value in unescaped: {out!r} (XSS); "
            "render in one pass and never expand placeholders inside values")


@pytest.mark.parametrize("template", TEMPLATES, ids=["text", "dq_attr", "sq_attr", "textarea", "mixed"])
def test_values_that_are_not_strings_never_become_markup(js, template):
    """Data from a JSON form can be an array: String() of it carries the markup just the same."""
    values = [v for p in PAYLOADS for v in payloads.not_strings(p)]
    outs = render_all(js, [[template, {"v": "harmless"}]] + [[template, {"v": v}] for v in values])
    expected = shape(outs[0]) if outs[0] is not None else None
    for value, out in zip(values, outs[1:]):
        if out is None:
            continue
        assert expected is None or shape(out) == expected, (
            f"rendering {template!r} with the value {value!r} (not a string) gave {out!r}: the value added or "
            "broke markup (XSS); escape every value after converting it with String(), not only strings")
