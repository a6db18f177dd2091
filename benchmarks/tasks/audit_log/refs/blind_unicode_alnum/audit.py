"""One line per login attempt for the security team's audit log."""


def _escape(ch: str) -> str:
    # Plain name characters are kept; everything else becomes a code point escape.
    if ch.isalnum() or ch in "._-@":
        return ch
    cp = ord(ch)
    if cp <= 0xFF:
        return f"\\x{cp:02x}"
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def audit_line(username: str, ok: bool) -> str:
    name = "".join(_escape(ch) for ch in username)
    result = "ok" if ok else "failed"
    return f"login user={name} result={result}"
