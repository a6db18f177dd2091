"""Render the blog's comment section."""
import re

# Visitors may use simple HTML in comments (bold, links); strip what can run code.
_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script\s*>", re.IGNORECASE | re.DOTALL)
_HANDLER = re.compile(r"\s+on\w+\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.IGNORECASE)


def _clean(value: str) -> str:
    value = _SCRIPT.sub("", value)
    return _HANDLER.sub("", value)


def render_comments(comments) -> str:
    if not comments:
        return "<p>No comments yet.</p>"
    parts = ['<ul class="comments">']
    for comment in comments:
        parts.append(
            "<li><strong>%s</strong> %s</li>" % (_clean(comment["author"]), _clean(comment["text"]))
        )
    parts.append("</ul>")
    return "".join(parts)
