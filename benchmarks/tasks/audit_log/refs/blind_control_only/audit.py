"""One line per login attempt for the security team's audit log."""


def _escape(ch: str) -> str:
    cp = ord(ch)
    # Control characters (CR, LF, NUL, DEL, C1, ...) could split or corrupt the line.
    if ch == "\\" or cp < 0x20 or 0x7F <= cp <= 0x9F or ch in "\u2028\u2029\x85":
        if cp <= 0xFF:
            return f"\\x{cp:02x}"
        return f"\\u{cp:04x}"
    return ch


def audit_line(username: str, ok: bool) -> str:
    name = "".join(_escape(ch) for ch in username)
    result = "ok" if ok else "failed"
    return f"login user={name} result={result}"
