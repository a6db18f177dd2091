import sqlite3


def find_user(conn: sqlite3.Connection, username):
    if username is None:
        return None
    username = username.strip()  # form input may carry stray whitespace
    if not username:
        return None
    row = conn.execute(
        "SELECT id, username, email FROM users WHERE username = ?", (username,)
    ).fetchone()
    if row is None:
        return None
    return {"id": row[0], "username": row[1], "email": row[2]}
