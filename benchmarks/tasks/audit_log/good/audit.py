import re

_PLAIN = re.compile(r"[A-Za-z0-9._@-]")


def _escape(ch: str) -> str:
    if _PLAIN.fullmatch(ch):
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def audit_line(username: str, ok: bool) -> str:
    user = "".join(_escape(c) for c in username)
    return f"login user={user} result={'ok' if ok else 'failed'}"
