from html import escape


def profile_link(name, website):
    return escape(name)
