import re

_TOKEN = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+")


def set_cookie_header(name, value):
    value = value.replace("\r\n", "")
    if not _TOKEN.fullmatch(name):
        raise ValueError("bad name")
    if any(c in value for c in ' ",;\\') or not value.isascii():
        raise ValueError("bad value")
    return f"Set-Cookie: {name}={value}; Path=/; HttpOnly"
