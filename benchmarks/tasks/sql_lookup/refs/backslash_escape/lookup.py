def find_user(conn, username):
    safe = username.replace("\\", "\\\\").replace("'", "\\'")
    row = conn.execute(
        "SELECT id, username, email FROM users WHERE username = '%s'" % safe
    ).fetchone()
    if row is None:
        return None
    return {"id": row[0], "username": row[1], "email": row[2]}
