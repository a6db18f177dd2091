from html import escape


def profile_link(name, website):
    if not website.startswith(("http://", "https://")):
        return escape(name)
    return f'<a href="{escape(website, quote=False)}" rel="nofollow">{escape(name)}</a>'
