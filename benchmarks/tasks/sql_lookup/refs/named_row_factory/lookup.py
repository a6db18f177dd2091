import sqlite3


def find_user(conn, username):
    cur = conn.cursor()
    cur.row_factory = sqlite3.Row
    row = cur.execute(
        "SELECT id, username, email FROM users WHERE username = :name", {"name": username}
    ).fetchone()
    return dict(row) if row is not None else None
