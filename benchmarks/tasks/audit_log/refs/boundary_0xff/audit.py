ALLOWED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-@")


def audit_line(username, ok):
    out = []
    for ch in username:
        code = ord(ch)
        if ch in ALLOWED:
            out.append(ch)
        elif code < 0xFF:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return f"login user={''.join(out)} result={'ok' if ok else 'failed'}"
