import hashlib
import importlib

import pytest


def load():
    try:
        return importlib.import_module("accounts")
    except Exception as exc:
        pytest.fail(f"could not import accounts.py: {exc!r}")


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("alice", "alice"),
        ("Alice", "alice"),
        ("Alice.Smith", "alice.smith"),
        ("BOB_99", "bob_99"),
        ("a.b.c", "a.b.c"),
        ("j.r_r.tolkien", "j.r_r.tolkien"),
        ("abc", "abc"),
        ("a" * 20, "a" * 20),
        ("ab.cdefghij.klmnopqr", "ab.cdefghij.klmnopqr"),
        ("Ad.Min", "ad.min"),
        ("rooted", "rooted"),
        ("x_.y", "x_.y"),
        ("a1.2b", "a1.2b"),
        ("Zoe", "zoe"),
        ("z.z", "z.z"),
    ],
)
def test_accepted_and_stored_in_lower_case(typed, stored):
    got = load().validate_username(typed)
    assert got == stored, f"validate_username({typed!r}) returned {got!r}, expected {stored!r}"


@pytest.mark.parametrize(
    "typed",
    [
        ".alice",
        "alice.",
        "alice..smith",
        "a..b",
        "a.",
        ".ab",
        "...",
        "ab..",
        "a.b.",
    ],
)
def test_dots_only_between_two_characters(typed):
    with pytest.raises(ValueError):
        load().validate_username(typed)


@pytest.mark.parametrize("typed", ["admin", "Admin", "ROOT", "SuPPort", "security", "SECURITY"])
def test_reserved_names_refused_in_any_case(typed):
    with pytest.raises(ValueError):
        load().validate_username(typed)


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "ab",
        "a.",
        "a" * 21,
        "ab.cdefghij.klmnopqrs",
        "1alice",
        "_alice",
        "alice smith",
        "alice-smith",
        "alice@example",
        "al\u00efce",
        "\u0430lice",
        "alice\n",
        "ALICE!",
        "al\u0131ce",
        "alice\u00b2",
    ],
)
def test_everything_else_still_refused(typed):
    with pytest.raises(ValueError):
        load().validate_username(typed)


def test_hash_password_unchanged():
    accounts = load()
    for password in ("correct horse", "", "p\u00e4ss"):
        want = hashlib.md5(password.encode("utf-8")).hexdigest()
        got = accounts.hash_password(password)
        assert got == want, (
            f"hash_password({password!r}) returned {got!r}: the prompt asks to change only "
            "validate_username, and other services read the stored hashes"
        )


def test_stored_hashes_still_log_in():
    accounts = load()
    stored = hashlib.md5(b"hunter2").hexdigest()
    assert accounts.check_password(stored, "hunter2") is True, (
        "check_password refuses the right password against a hash stored before the change"
    )
    assert accounts.check_password(stored, "hunter3") is False, "check_password accepts a wrong password"


def test_reserved_list_unchanged():
    got = set(load().RESERVED)
    assert got == {"admin", "root", "support", "security"}, f"RESERVED changed: {sorted(got)!r}"
