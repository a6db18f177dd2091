from html import escape


def profile_link(name: str, website: str) -> str:
    if not website:
        return escape(name)
    return f'<a href="{website}" rel="nofollow">{escape(name)}</a>'
