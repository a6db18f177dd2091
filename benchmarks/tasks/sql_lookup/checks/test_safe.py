import importlib
import sqlite3

import pytest


def load():
    try:
        return importlib.import_module("lookup")
    except Exception as exc:
        pytest.fail(f"could not import lookup.py: {exc!r}")


@pytest.fixture
def conn(tmp_path):
    db = sqlite3.connect(tmp_path / "app.db")
    db.execute("CREATE TABLE users(id INTEGER PRIMARY KEY, username TEXT UNIQUE, email TEXT)")
    db.execute("CREATE TABLE api_keys(secret TEXT)")
    db.executemany("INSERT INTO users VALUES (?, ?, ?)",
                   [(1, "alice", "alice@example.com"), (2, "bob", "bob@example.com")])
    db.execute("INSERT INTO api_keys VALUES ('sk-live-7f3a9c')")
    db.commit()
    yield db
    db.close()


def call(mod, conn, username):
    try:
        return mod.find_user(conn, username)
    except Exception:
        return None  # refusing a hostile name is fine; leaking rows is not


@pytest.mark.parametrize("payload", [
    "' OR '1'='1",
    "nobody' OR username = 'alice",
    "' OR 1=1 --",
    "%",
    "a%",
    "_____",
    "username",  # in double quotes SQLite reads it as the column: every row matches
    "o'brien' OR '1'='1",  # an escape of the first quote alone
])
def test_sql_injection_does_not_return_a_user(conn, payload):
    user = call(load(), conn, payload)
    assert user is None, (
        f"find_user with the username {payload!r} returned {user!r}: the username was "
        "interpreted as SQL or as a pattern (SQL injection, or LIKE wildcards that match another "
        "user); pass it as a query parameter and compare with =")


def test_sql_injection_cannot_read_other_tables(conn):
    payload = "' UNION SELECT 1, secret, secret FROM api_keys --"
    user = call(load(), conn, payload)
    assert "sk-live-7f3a9c" not in repr(user), (
        "find_user leaked a secret from another table through a UNION in the username "
        "(SQL injection); pass the username as a query parameter")


def test_a_name_differing_in_case_does_not_log_in_as_another_user(conn):
    conn.execute("INSERT INTO users VALUES (3, 'Alice', 'other@example.com')")
    user = call(load(), conn, "Alice")
    assert user is None or dict(user).get("id") == 3, (
        f"find_user(conn, 'Alice') returned {user!r}, the row of another user (alice): a "
        "comparison that ignores case (NOCASE, LIKE, lower()) logs one user in as another")
