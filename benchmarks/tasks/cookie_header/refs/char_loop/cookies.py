import string

TOKEN_CHARS = set(string.ascii_letters + string.digits + "!#$%&'*+.^_`|~-")
FORBIDDEN = set(' ",;\\')


def set_cookie_header(name, value):
    if not name or any(c not in TOKEN_CHARS for c in name):
        raise ValueError("bad cookie name")
    for c in value:
        if not (33 <= ord(c) <= 126) or c in FORBIDDEN:
            raise ValueError("bad cookie value")
    return "Set-Cookie: %s=%s; Path=/; HttpOnly" % (name, value)
