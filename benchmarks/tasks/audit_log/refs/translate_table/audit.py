import string

ALLOWED = set(string.ascii_letters + string.digits + "._-@")


def audit_line(username, ok):
    out = []
    for ch in username:
        if ch in ALLOWED:
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append("\\x%02x" % ord(ch))
        elif ord(ch) < 0x10000:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append("\\U%08x" % ord(ch))
    return "login user=%s result=%s" % ("".join(out), "ok" if ok else "failed")
