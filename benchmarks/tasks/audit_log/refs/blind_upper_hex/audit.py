"""One line per login attempt for the security team's audit log."""
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._@-]")


def _sub(m: re.Match[str]) -> str:
    cp = ord(m.group(0))
    if cp <= 0xFF:
        return f"\\x{cp:02X}"
    if cp <= 0xFFFF:
        return f"\\u{cp:04X}"
    return f"\\U{cp:08X}"


def audit_line(username: str, ok: bool) -> str:
    name = _UNSAFE.sub(_sub, username)
    return f"login user={name} result={'ok' if ok else 'failed'}"
