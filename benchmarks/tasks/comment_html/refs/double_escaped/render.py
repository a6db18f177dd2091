from html import escape


def render_comments(comments):
    if not comments:
        return "<p>No comments yet.</p>"
    items = "".join(
        f"<li><strong>{escape(escape(c['author']))}</strong> {escape(escape(c['text']))}</li>"
        for c in comments
    )
    return f'<ul class="comments">{items}</ul>'
