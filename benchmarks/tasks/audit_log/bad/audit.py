def audit_line(username: str, ok: bool) -> str:
    return f"login user={username} result={'ok' if ok else 'failed'}"
