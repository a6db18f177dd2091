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
    db.executemany("INSERT INTO users VALUES (?, ?, ?)",
                   [(1, "alice", "alice@example.com"), (2, "bob", "bob@example.com")])
    db.commit()
    yield db
    db.close()


def test_finds_existing_user(conn):
    user = load().find_user(conn, "alice")
    assert user is not None, "find_user(conn, 'alice') returned None, but alice is in the table"
    assert dict(user) == {"id": 1, "username": "alice", "email": "alice@example.com"}, (
        f"find_user(conn, 'alice') should return alice's row as a dict, got {user!r}")


def test_finds_the_right_user(conn):
    user = load().find_user(conn, "bob")
    assert user is not None and dict(user)["id"] == 2, (
        f"find_user(conn, 'bob') should return bob (id 2), got {user!r}")


def test_unknown_user_is_none(conn):
    assert load().find_user(conn, "carol") is None, "find_user for an unknown name should return None"


def test_quote_in_name_is_just_a_character(conn):
    conn.execute("INSERT INTO users VALUES (3, 'o''brien', 'ob@example.com')")
    mod = load()
    try:
        user = mod.find_user(conn, "o'brien")
    except Exception as exc:
        pytest.fail(f"find_user(conn, \"o'brien\") raised {exc!r}: a quote in a name must work")
    assert user is not None and dict(user)["id"] == 3, (
        f"find_user(conn, \"o'brien\") should find the user whose name contains a quote, got {user!r}")


def test_the_name_is_matched_exactly(conn):
    # The column compares case and spaces as typed: another spelling is no user of that name.
    conn.execute("INSERT INTO users VALUES (3, ' carol ', 'carol@example.com')")
    mod = load()
    for other in ["ALICE", "Alice", " alice", "alice ", "carol", "username"]:
        assert mod.find_user(conn, other) is None, (
            f"find_user(conn, {other!r}) returned a user, but no user has exactly that name: "
            "compare the name as typed (no LIKE, no NOCASE, no stripping)")
    user = mod.find_user(conn, " carol ")
    assert user is not None and dict(user)["id"] == 3, (
        f"find_user(conn, ' carol ') should find the user whose name has the spaces, got {user!r}")
