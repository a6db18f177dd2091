"""One line per login attempt for the security team's audit log."""
import string

# Characters that can never break the line format and are kept as typed.
_SAFE = set(string.ascii_letters + string.digits + "._-@\\")


def _escape(ch: str) -> str:
    if ch in _SAFE:
        return ch
    cp = ord(ch)
    if cp <= 0xFF:
        return f"\\x{cp:02x}"
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def audit_line(username: str, ok: bool) -> str:
    name = "".join(_escape(ch) for ch in username)
    return f"login user={name} result={'ok' if ok else 'failed'}"
