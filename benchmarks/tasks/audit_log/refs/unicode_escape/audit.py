def audit_line(username, ok):
    user = username.encode("unicode_escape").decode("ascii")
    return f"login user={user} result={'ok' if ok else 'failed'}"
