import re

_PLAIN = re.compile(r"[A-Za-z0-9._@ -]")


def _escape(ch):
    if _PLAIN.fullmatch(ch) and ch != " ":
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def audit_line(username, ok):
    user = "".join(c if c in "\u2028\x0b\x85" else _escape(c) for c in username)
    return f"login user={user} result={'ok' if ok else 'failed'}"
