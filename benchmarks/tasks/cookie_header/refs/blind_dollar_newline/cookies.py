"""Set-Cookie header for the small HTTP server."""
import re

_TOKEN = re.compile(r"^[A-Za-z0-9!#$%&'*+.^_`|~-]+$")
# cookie-octet: printable ASCII except space, DQUOTE, comma, semicolon and backslash.
_VALUE = re.compile(r'^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$')


def set_cookie_header(name: str, value: str) -> str:
    if not _TOKEN.match(name):
        raise ValueError(f"invalid cookie name: {name!r}")
    if not _VALUE.match(value):
        raise ValueError(f"invalid cookie value: {value!r}")
    return f"Set-Cookie: {name}={value}; Path=/; HttpOnly"
