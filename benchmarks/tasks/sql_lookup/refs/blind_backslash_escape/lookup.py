import sqlite3


def _quote(value: str) -> str:
    # escape backslashes and quotes so the value can't break out of the literal
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def find_user(conn: sqlite3.Connection, username):
    sql = f"SELECT id, username, email FROM users WHERE username = {_quote(str(username))}"
    row = conn.execute(sql).fetchone()
    if row is None:
        return None
    return {"id": row[0], "username": row[1], "email": row[2]}
