"""The HTML table of the admin pages' "raw data" view."""

import html
import json


def _cell_text(value) -> str:
    """A JSON value as the text of a cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ", ".join(_cell_text(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def render_table(columns: list[str], rows: list[dict]) -> str:
    out = ["<table>", "<tr>"]
    for column in columns:
        out.append(f"<th>{column}</th>")
    out.append("</tr>")
    for row in rows:
        out.append("<tr>")
        for column in columns:
            out.append(f"<td>{html.escape(_cell_text(row.get(column)))}</td>")
        out.append("</tr>")
    out.append("</table>")
    return "\n".join(out)
