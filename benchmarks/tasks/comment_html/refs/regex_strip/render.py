import re

TAG = re.compile(r"<[^>]*>")


def clean(value):
    return TAG.sub("", value)


def render_comments(comments):
    if not comments:
        return "<p>No comments yet.</p>"
    items = "".join(
        f"<li><strong>{clean(c['author'])}</strong> {clean(c['text'])}</li>" for c in comments
    )
    return f'<ul class="comments">{items}</ul>'
