import re

_SAFE_NAME = re.compile(r"^[A-Za-z0-9._@-]+$")


def _escape(ch):
    if re.match(r"^[A-Za-z0-9._@-]$", ch):
        return ch
    code = ord(ch)
    if code <= 0xFF:
        return "\\x%02x" % code
    if code <= 0xFFFF:
        return "\\u%04x" % code
    return "\\U%08x" % code


def audit_line(username, ok):
    if _SAFE_NAME.match(username):
        user = username  # the common case: nothing to escape
    else:
        user = "".join(_escape(c) for c in username)
    return f"login user={user} result={'ok' if ok else 'failed'}"
