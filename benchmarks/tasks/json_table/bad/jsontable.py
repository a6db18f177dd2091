import html
import json


def _text(value) -> str:
    """A JSON value as the table shows it (not yet escaped)."""
    if value is None:
        return ""
    if isinstance(value, bool):  # before int: bool is a subclass of int
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_text(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _cell(value) -> str:
    if isinstance(value, str):
        return html.escape(value)
    return _text(value)  # numbers, booleans, lists, objects: no user text to escape


def render_table(columns: list[str], rows: list[dict]) -> str:
    """An HTML table of `rows`, one column per key in `columns`; string values escaped."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in columns)
    body = [
        "<tr>" + "".join(f"<td>{_cell(row.get(c))}</td>" for c in columns) + "</tr>"
        for row in rows
    ]
    return "<table><tr>" + head + "</tr>" + "".join(body) + "</table>"
