import json
from html import escape


def show(value):
    match value:
        case None:
            return ""
        case True:
            return "yes"
        case False:
            return "no"
        case list():
            return ", ".join(map(show, value))
        case dict():
            return json.dumps(value, ensure_ascii=False)
        case _:
            return str(value)


def render_table(columns, rows):
    out = ["<table>", "<thead><tr>"]
    out += [f"<th scope='col'>{escape(name)}</th>" for name in columns]
    out.append("</tr></thead><tbody>")
    for record in rows:
        out.append("<tr>")
        out += [f"<td>{escape(show(record.get(name)))}</td>" for name in columns]
        out.append("</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)
