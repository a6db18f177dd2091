def find_user(conn, username):
    # Doubles the quote of a name like o'brien, but only the first one.
    safe = username.replace("'", "''", 1)
    row = conn.execute(
        f"SELECT id, username, email FROM users WHERE username = '{safe}'"
    ).fetchone()
    if row is None:
        return None
    return {"id": row[0], "username": row[1], "email": row[2]}
