"""Set-Cookie header for the small HTTP server."""
import re

_TOKEN = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+")
# CR and LF would split the header; space, quote, comma, semicolon and backslash
# would break the cookie syntax.
_BAD_VALUE_CHARS = set('\r\n ",;\\')


def set_cookie_header(name: str, value: str) -> str:
    if not _TOKEN.fullmatch(name):
        raise ValueError(f"invalid cookie name: {name!r}")
    if any(ch in _BAD_VALUE_CHARS for ch in value):
        raise ValueError(f"invalid cookie value: {value!r}")
    return f"Set-Cookie: {name}={value}; Path=/; HttpOnly"
