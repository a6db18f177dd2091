import sqlite3


def find_user(conn: sqlite3.Connection, username):
    cur = conn.execute(
        "SELECT id, username, email FROM users WHERE username LIKE ? LIMIT 1",
        (username,),
    )
    row = cur.fetchone()
    if row is None:
        return None
    return {"id": row[0], "username": row[1], "email": row[2]}
