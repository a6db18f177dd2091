import re


def audit_line(username, ok):
    user = re.sub(r"[^A-Za-z0-9._@-]", "", username)
    return f"login user={user} result={'ok' if ok else 'failed'}"
