"""Set-Cookie header for the small HTTP server."""

_TOKEN_SYMBOLS = "!#$%&'*+.^_`|~-"
_VALUE_EXCLUDED = ' ",;\\'


def _is_token(name: str) -> bool:
    return bool(name) and all(c.isalnum() or c in _TOKEN_SYMBOLS for c in name)


def _is_cookie_value(value: str) -> bool:
    return all(c.isascii() and c.isprintable() and c not in _VALUE_EXCLUDED for c in value)


def set_cookie_header(name: str, value: str) -> str:
    if not _is_token(name):
        raise ValueError(f"cookie name {name!r} is not a token")
    if not _is_cookie_value(value):
        raise ValueError(f"cookie value {value!r} is not allowed")
    return f"Set-Cookie: {name}={value}; Path=/; HttpOnly"
