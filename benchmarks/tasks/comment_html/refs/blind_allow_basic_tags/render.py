"""Render the blog's comment section."""
import html
import re

# Let visitors keep simple emphasis: the escaped forms of these tags are restored.
_ALLOWED_TAG = re.compile(r"&lt;(/?(?:b|i|em|strong)(?:\s[^&]*)?)&gt;", re.IGNORECASE)


def _format(value: str) -> str:
    escaped = html.escape(value, quote=False)
    return _ALLOWED_TAG.sub(r"<\1>", escaped)


def render_comments(comments) -> str:
    if not comments:
        return "<p>No comments yet.</p>"
    out = ['<ul class="comments">']
    for c in comments:
        out.append(f"<li><strong>{_format(c['author'])}</strong> {_format(c['text'])}</li>")
    out.append("</ul>")
    return "".join(out)
