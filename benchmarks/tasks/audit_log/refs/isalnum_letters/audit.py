def _escape(ch):
    if ch.isalnum() or ch in "._-@":
        return ch
    code = ord(ch)
    if code <= 0xFF:
        return "\\x%02x" % code
    if code <= 0xFFFF:
        return "\\u%04x" % code
    return "\\U%08x" % code


def audit_line(username, ok):
    user = "".join(_escape(c) for c in username)
    return "login user=%s result=%s" % (user, "ok" if ok else "failed")
