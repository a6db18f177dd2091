"""Render the blog's comment section."""

_REPLACEMENTS = [
    ("<", "&lt;"),
    (">", "&gt;"),
    ('"', "&quot;"),
    ("'", "&#x27;"),
    ("&", "&amp;"),
]


def _escape(value: str) -> str:
    for raw, entity in _REPLACEMENTS:
        value = value.replace(raw, entity)
    return value


def render_comments(comments) -> str:
    if not comments:
        return "<p>No comments yet.</p>"
    lines = ['<ul class="comments">']
    for comment in comments:
        lines.append(
            f"  <li><strong>{_escape(comment['author'])}</strong> {_escape(comment['text'])}</li>"
        )
    lines.append("</ul>")
    return "\n".join(lines)
