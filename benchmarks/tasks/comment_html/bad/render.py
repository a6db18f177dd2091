from html import escape


def render_comments(comments):
    """HTML fragment for a list of {'author', 'text'} comments."""
    if not comments:
        return "<p>No comments yet.</p>"
    items = "".join(
        f"<li><strong>{c['author']}</strong> {escape(c['text'])}</li>" for c in comments
    )
    return f'<ul class="comments">{items}</ul>'
