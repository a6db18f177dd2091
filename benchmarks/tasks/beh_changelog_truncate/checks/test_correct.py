import importlib

import pytest


def load():
    try:
        return importlib.import_module("textkit.words")
    except Exception as exc:
        pytest.fail(f"could not import textkit/words.py: {exc!r}")


@pytest.mark.parametrize(
    ("text", "limit", "want"),
    [
        ("hello", 10, "hello"),
        ("", 5, ""),
        ("abcd efgh", 9, "abcd efgh"),
        ("abcd", 4, "abcd"),
        ("The quick brown fox", 14, "The quick..."),
        ("The quick brown fox", 12, "The quick..."),
        ("The quick brown fox", 11, "The..."),
        ("The quick brown fox", 18, "The quick brown..."),
        ("The quick brown fox", 19, "The quick brown fox"),
        ("hello world", 10, "hello..."),
        ("one  two\nthree four", 15, "one  two..."),
        ("one\ttwo three", 12, "one\ttwo..."),
        ("one two   three", 11, "one two..."),
        ("a" + " " * 20 + "b", 10, "a..."),
        ("Gr\u00fc\u00dfe an alle Leute", 15, "Gr\u00fc\u00dfe an..."),
    ],
)
def test_truncate(text, limit, want):
    got = load().truncate_words(text, limit)
    assert got == want, f"truncate_words({text!r}, {limit}) returned {got!r}, expected {want!r}"


@pytest.mark.parametrize(
    ("text", "limit", "want"),
    [
        ("Supercalifragilistic word", 10, "Superca..."),
        ("abcdef", 4, "a..."),
        ("abcdefgh ij", 7, "abcd..."),
        ("Antidisestablishmentarianism", 27, "Antidisestablishmentaria..."),
    ],
)
def test_first_word_cut_to_exactly_limit(text, limit, want):
    got = load().truncate_words(text, limit)
    assert got == want, f"truncate_words({text!r}, {limit}) returned {got!r}, expected {want!r}"


@pytest.mark.parametrize(("text", "limit"), [("abcdef", 3), ("ab", 3), ("", 0), ("hello world", -1), ("x", 2)])
def test_limit_below_four_refused(text, limit):
    with pytest.raises(ValueError):
        load().truncate_words(text, limit)


def test_never_longer_than_limit():
    truncate_words = load().truncate_words
    text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor"
    for limit in range(4, len(text) + 2):
        got = truncate_words(text, limit)
        assert len(got) <= limit, f"truncate_words(..., {limit}) returned {len(got)} characters: {got!r}"
        if len(text) > limit:
            assert got.endswith("...") and text.startswith(got[:-3]), f"truncate_words(..., {limit}) returned {got!r}"


def test_the_other_helpers_unchanged():
    words = load()
    assert words.word_count("  two   words ") == 2, "word_count changed"
    assert words.capitalize_words("the lord of the rings", min_length=4) == "the Lord of the Rings", "capitalize_words changed"


def test_first_word_after_leading_spaces_cut_to_exactly_limit():
    got = load().truncate_words("  abcdefghij klm", 6)
    assert isinstance(got, str) and len(got) == 6 and got.endswith("..."), (
        f"truncate_words('  abcdefghij klm', 6) returned {got!r}: the first word does not fit, so the "
        "result should be exactly 6 characters, ending in ..."
    )


def test_the_package_still_exports_its_helpers():
    try:
        namespace = {}
        exec("from textkit import *", namespace)
    except Exception as exc:
        pytest.fail(f"from textkit import * fails: {exc!r}")
    missing = [name for name in ("capitalize_words", "word_count") if name not in namespace]
    assert not missing, f"textkit no longer exports {missing}"
