from urllib.parse import quote


def set_cookie_header(name, value):
    return f"Set-Cookie: {quote(name, safe='')}={quote(value, safe='')}; Path=/; HttpOnly"
