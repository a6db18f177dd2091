"""Render the blog's comment section."""
import html


def render_comments(comments) -> str:
    if not comments:
        return "<p>No comments yet.</p>"
    rows = []
    for comment in comments:
        author = html.escape(comment["author"], quote=False)
        text = html.escape(comment["text"])
        # The title shows the full name on hover when long names are cut by CSS.
        rows.append(f"<li><strong title='{author}'>{author}</strong> {text}</li>")
    return '<ul class="comments">' + "".join(rows) + "</ul>"
