"""Set-Cookie header for the small HTTP server."""
import string

_TOKEN_CHARS = set(string.ascii_letters + string.digits + "!#$%&'*+.^_`|~-")


def set_cookie_header(name: str, value: str) -> str:
    if not name or any(c not in _TOKEN_CHARS for c in name):
        raise ValueError(f"invalid cookie name {name!r}")
    for c in value:
        # Printable ASCII without space is 33..127; then the four separators.
        if not 32 < ord(c) < 128 or c in '",;\\':
            raise ValueError(f"invalid character {c!r} in cookie value")
    return f"Set-Cookie: {name}={value}; Path=/; HttpOnly"
