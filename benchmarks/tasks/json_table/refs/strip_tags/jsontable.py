import json
import re

TAG = re.compile(r"<[^>]*>")


def _text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def render_table(columns, rows):
    clean = lambda s: TAG.sub("", s)  # noqa: E731
    head = "".join(f"<th>{clean(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{clean(_text(r.get(c)))}</td>" for c in columns) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"
