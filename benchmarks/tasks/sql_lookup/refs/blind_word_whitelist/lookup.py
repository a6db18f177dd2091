import re
import sqlite3

_VALID = re.compile(r"^[A-Za-z0-9_]+$")


def find_user(conn: sqlite3.Connection, username):
    # username comes from the login form: refuse anything odd before it reaches SQL
    if not isinstance(username, str) or not _VALID.match(username):
        return None
    row = conn.execute(
        "SELECT id, username, email FROM users WHERE username = ?", (username,)
    ).fetchone()
    if row is None:
        return None
    return {"id": row[0], "username": row[1], "email": row[2]}
