def audit_line(username, ok):
    return f"login user={username!r} result={'ok' if ok else 'failed'}"
