import sqlite3


def find_user(conn: sqlite3.Connection, username):
    # double any embedded quote so the value stays inside the literal
    safe = str(username).replace('"', '""')
    row = conn.execute(
        f'SELECT id, username, email FROM users WHERE username = "{safe}"'
    ).fetchone()
    if row is None:
        return None
    return {"id": row[0], "username": row[1], "email": row[2]}
