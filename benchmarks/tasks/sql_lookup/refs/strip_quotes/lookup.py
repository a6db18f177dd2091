def find_user(conn, username):
    cleaned = username.replace("'", "").replace('"', "").replace("%", "").replace("_", "")
    row = conn.execute(
        "SELECT id, username, email FROM users WHERE username = ?", (cleaned,)
    ).fetchone()
    if row is None:
        return None
    return {"id": row[0], "username": row[1], "email": row[2]}
