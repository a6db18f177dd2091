"""Set-Cookie header for the small HTTP server."""
import string

_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "!#$%&'*+.^_`|~-")
_FORBIDDEN_IN_VALUE = frozenset(' ",;\\')


def _is_value_char(ch: str) -> bool:
    return 0x21 <= ord(ch) <= 0x7E and ch not in _FORBIDDEN_IN_VALUE


def set_cookie_header(name: str, value: str) -> str:
    if not all(ch in _TOKEN_CHARS for ch in name):
        raise ValueError(f"cookie name is not a token: {name!r}")
    if not all(_is_value_char(ch) for ch in value):
        raise ValueError(f"cookie value has a forbidden character: {value!r}")
    return f"Set-Cookie: {name}={value}; Path=/; HttpOnly"
