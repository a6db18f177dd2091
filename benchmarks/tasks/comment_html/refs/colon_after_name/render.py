import html


def render_comments(comments):
    if not comments:
        return "<p>No comments yet.</p>"
    lines = ['<ul class="comments">']
    for c in comments:
        lines.append(f"  <li><strong>{html.escape(c['author'])}:</strong> {html.escape(c['text'])}</li>")
    lines.append("</ul>")
    return "\n".join(lines)
