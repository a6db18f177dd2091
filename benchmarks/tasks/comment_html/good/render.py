from html import escape


def render_comments(comments):
    """HTML fragment for a list of {'author', 'text'} comments, all user text escaped."""
    if not comments:
        return "<p>No comments yet.</p>"
    items = "".join(
        f"<li><strong>{escape(c['author'])}</strong> {escape(c['text'])}</li>" for c in comments
    )
    return f'<ul class="comments">{items}</ul>'
