BLOCKED = ("<script>", "</script>", "javascript:", "onerror=", "onload=")


def clean(value):
    for bad in BLOCKED:
        value = value.replace(bad, "")
    return value


def render_comments(comments):
    if not comments:
        return "<p>No comments yet.</p>"
    items = "".join(
        f"<li><strong>{clean(c['author'])}</strong> {clean(c['text'])}</li>" for c in comments
    )
    return f'<ul class="comments">{items}</ul>'
