def find_user(conn, username):
    """Return the user named `username` as a dict, or None."""
    row = conn.execute(
        "SELECT id, username, email FROM users WHERE username = ?", (username,)
    ).fetchone()
    if row is None:
        return None
    return {"id": row[0], "username": row[1], "email": row[2]}
