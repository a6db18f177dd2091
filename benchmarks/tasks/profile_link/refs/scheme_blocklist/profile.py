from html import escape


def profile_link(name, website):
    if not website or "javascript:" in website or not website.lower().lstrip().startswith(("http", "javascript", "data")):
        return escape(name)
    return f'<a href="{escape(website)}" rel="nofollow">{escape(name)}</a>'
