"""The correct axis: the behaviour tests/test_greeting.py pins down, on names it did not try."""

import pytest


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ada", "Hello, Ada!"),
        ("Linus", "Hello, Linus!"),
        ("  Grace ", "Hello, Grace!"),
        ("\tKen\n", "Hello, Ken!"),
        ("", "Hello, stranger!"),
        ("   ", "Hello, stranger!"),
    ],
)
def test_greeting(name, expected):
    from greeting import greeting  # imported here: a missing file fails the check, not collection

    got = greeting(name)
    assert got == expected, f"greeting({name!r}) returned {got!r}, expected {expected!r}"
