import html
import json

import pytest

import payloads


def render_all(js, cases):
    """[(template, data)] -> render's output for each (or 'throws <Name>: <message>')."""
    return js("template.js", f"""
        const render = pick('render');
        if (typeof render !== "function") throw new Error("template.js does not export a function render");
        return {json.dumps(cases)}.map(([t, d]) => {{
            const got = attempt(() => render(t, d));
            return got.ok ? got.value : "throws " + got.name + ": " + got.message;
        }});
    """)


def one(js, template, data):
    out = js[(template, json.dumps(data, sort_keys=True))] if isinstance(js, dict) else render_all(js, [[template, data]])[0]
    assert isinstance(out, str) and not out.startswith("throws "), (
        f"render({template!r}, {data!r}) should return a string, got {out!r}")
    return out


FILLS = [
    ("Hello {{name}}!", {"name": "Ann"}, "Hello Ann!"),
    ("{{ name }}|{{name}}|{{  name  }}", {"name": "Bo"}, "Bo|Bo|Bo"),
    ("<a href=\"/u/{{user.id}}\" title=\"{{ user.name }}\">{{user.name}}</a>", {"user": {"id": 7, "name": "Ann"}},
     "<a href=\"/u/7\" title=\"Ann\">Ann</a>"),
    ("{{a.b.c}}", {"a": {"b": {"c": "deep"}}}, "deep"),
    ("{{n}} {{f}} {{t}} {{e}}", {"n": 0, "f": False, "t": True, "e": ""}, "0 false true "),
    ("[{{missing}}] [{{a.missing}}] [{{a.b.c}}] [{{z}}] [{{u}}]", {"a": {"b": None}, "z": None}, "[] [] [] [] []"),
    ("{{a.b}}", {"a": 5}, ""),
    ("{{items.0.name}} and {{items.1.name}}", {"items": [{"name": "x"}, {"name": "y"}]}, "x and y"),
    ("{{list}}", {"list": [1, 2]}, "1,2"),
    ("{{user_name}}{{id2}}", {"user_name": "u", "id2": 2}, "u2"),
    ("{{x}}{{x}}", {"x": "ab"}, "abab"),
    ("no placeholders &amp; {braces} {{ not valid }} {{a-b}} {{}} }}", {"a": 1}, "no placeholders &amp; {braces} {{ not valid }} {{a-b}} {{}} }}"),
    ("{{a}}", {"a": 1.5}, "1.5"),
    ("", {}, ""),
    # never closed: kept as they are, to the end of the template
    ("Dear {{name", {"name": "Ann"}, "Dear {{name"),
    ("Dear {{{name", {"name": "Ann"}, "Dear {{{name"),
    ("Dear {{ name }", {"name": "Ann"}, "Dear {{ name }"),
]


@pytest.mark.parametrize("template, data, expected", FILLS)
def test_placeholders_are_filled(rendered, template, data, expected):
    out = one(rendered, template, data)
    assert out == expected, f"render({template!r}, {data!r}) gave {out!r}, expected {expected!r}"


VALUES = [
    "Tom & Jerry", "a < b > c", 'say "hi"', "it's", "<b>bold</b>", "&amp; stays literal",
    "&lt;", "100% \\ {{x}}", "line\nbreak", "ünïcödé ✓", "`tick`", "&#39;",
]
ATTRS = "<p title=\"{{v}}\" data-x='{{v}}'>{{v}}</p>"


@pytest.mark.parametrize("value", VALUES)
def test_escaped_values_read_back_as_typed(rendered, value):
    out = one(rendered, ATTRS, {"v": value, "x": "X"})
    prefix, suffix = '<p title="', "</p>"
    assert out.startswith(prefix) and out.endswith(suffix), f"the template around the values changed: {out!r}"
    texts = [out[len(prefix):out.index('" data-x=')],
             out[out.index("data-x='") + 8:out.index("'>", out.index("data-x='") + 8)],
             out[out.index("'>", out.index("data-x='") + 8) + 2:-len(suffix)]]
    for part in texts:
        assert html.unescape(part) == value, (
            f"the value {value!r} should read back as typed once the HTML is decoded, got {part!r} in {out!r}")


RAWS = ["<b>bold</b>", "a & b", "\"q\" 'q'", ""]


@pytest.fixture(scope="module")
def rendered(js_batch):
    """render for every parametrized case below, in one node run: (template, data as JSON) -> output."""
    cases = [[t, d] for t, d, _ in FILLS] + [[ATTRS, {"v": v, "x": "X"}] for v in VALUES]
    cases += [["<div>{{{ html }}}|{{{html}}}</div>", {"html": v}] for v in RAWS]
    outs = render_all(js_batch, cases)
    return {(t, json.dumps(d, sort_keys=True)): out for (t, d), out in zip(cases, outs)}


@pytest.mark.parametrize("value", RAWS)
def test_triple_braces_insert_raw(rendered, value):
    out = one(rendered, "<div>{{{ html }}}|{{{html}}}</div>", {"html": value})
    assert out == f"<div>{value}|{value}</div>", f"{{{{{{html}}}}}} should insert {value!r} unescaped, got {out!r}"


def test_placeholders_inside_values_are_not_expanded(js):
    out = one(js, "{{a}}/{{b}}", {"a": "{{b}}", "b": "{{{a}}}"})
    assert out == "{{b}}/{{{a}}}", f"values must be inserted as they are, not expanded again: got {out!r}"


def test_missing_raw_value_is_empty(js):
    out = one(js, "[{{{nothing}}}][{{{n}}}][{{{z}}}]", {"n": None, "z": 0})
    assert out == "[][][0]", f"a missing or null value is the empty string, 0 is '0': got {out!r}"


@pytest.mark.parametrize("path", payloads.TEMPLATE_FIELDS_JS)
def test_inherited_members_are_not_in_data(js, path):
    """The value at a path is the data's own: a member every object inherits is missing."""
    out = one(js, f"[{{{{{path}}}}}][{{{{user.{path}}}}}][{{{{{{user.{path}}}}}}}]", {"user": {"name": "Ann"}})
    assert out == "[][][]", (
        f"{{{{{path}}}}} and {{{{user.{path}}}}} are not in the data, so they are missing (the empty string); got {out!r}")
