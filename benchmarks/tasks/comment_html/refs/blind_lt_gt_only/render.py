"""Render the blog's comment section."""


def _escape(value: str) -> str:
    # Angle brackets are what make tags; neutralise them.
    return value.replace("<", "&lt;").replace(">", "&gt;")


def render_comments(comments) -> str:
    if not comments:
        return "<p>No comments yet.</p>"
    items = []
    for comment in comments:
        author = _escape(comment["author"])
        text = _escape(comment["text"])
        items.append(f"<li><strong>{author}</strong> {text}</li>")
    return '<ul class="comments">' + "".join(items) + "</ul>"
