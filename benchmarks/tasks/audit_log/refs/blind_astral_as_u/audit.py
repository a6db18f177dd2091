"""One line per login attempt for the security team's audit log."""
import string

_KEEP = frozenset(string.ascii_letters + string.digits + "._-@")


def _escape(ch: str) -> str:
    if ch in _KEEP:
        return ch
    cp = ord(ch)
    if cp <= 0xFF:
        return "\\x%02x" % cp
    return "\\u%04x" % cp


def audit_line(username: str, ok: bool) -> str:
    return "login user=%s result=%s" % (
        "".join(_escape(c) for c in username),
        "ok" if ok else "failed",
    )
