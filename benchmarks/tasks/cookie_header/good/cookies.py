import re

_TOKEN = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+")
_VALUE = re.compile(r'[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*')


def set_cookie_header(name: str, value: str) -> str:
    if not _TOKEN.fullmatch(name):
        raise ValueError(f"not a cookie name: {name!r}")
    if not _VALUE.fullmatch(value):
        raise ValueError(f"not a cookie value: {value!r}")
    return f"Set-Cookie: {name}={value}; Path=/; HttpOnly"
