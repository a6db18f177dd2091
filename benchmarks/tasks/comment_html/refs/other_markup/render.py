import html


def render_comments(comments):
    if len(comments) == 0:
        return "<p>No comments yet.</p>"
    parts = ['<ul class="comments">']
    for comment in comments:
        author = html.escape(str(comment["author"]), quote=True)
        text = html.escape(str(comment["text"]), quote=True)
        parts.append(
            f'<li><article><strong class="author">{author}</strong>'
            f"<blockquote>{text}</blockquote></article></li>"
        )
    parts.append("</ul>")
    return "\n".join(parts)
