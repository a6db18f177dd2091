import re

NAME_RE = re.compile(r"^[A-Za-z0-9!#$%&'*+.^_`|~-]+$")
VALUE_RE = re.compile(r'^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$')


def set_cookie_header(name, value):
    if not NAME_RE.match(name):
        raise ValueError(f"invalid cookie name {name!r}")
    if not VALUE_RE.match(value):
        raise ValueError(f"invalid cookie value {value!r}")
    return f"Set-Cookie: {name}={value}; Path=/; HttpOnly"
