def find_user(conn, username):
    row = conn.execute(
        "SELECT id, username, email FROM users WHERE username LIKE ?", (username,)
    ).fetchone()
    if row is None:
        return None
    return {"id": row[0], "username": row[1], "email": row[2]}
