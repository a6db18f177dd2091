import importlib

import pytest


def slugify(title):
    try:
        module = importlib.import_module("slug")
    except Exception as exc:
        pytest.fail(f"could not import slug.py: {exc!r}")
    return module.slugify(title)


@pytest.mark.parametrize(
    "title, expected, case",
    [
        ("Release Notes", "release-notes", "two words"),
        ("C++ -- the good parts...", "c-the-good-parts", "runs of punctuation"),
        ("__init__ explained", "init-explained", "underscores are not word characters in a slug"),
        ("Ångström über naïve façade", "angstrom-uber-naive-facade", "accented letters"),
        ("Version 2.0 is out", "version-2-0-is-out", "digits stay"),
        ("ends with dash -", "ends-with-dash", "no trailing dash"),
    ],
)
def test_slug(title, expected, case):
    got = slugify(title)
    assert got == expected, f"slugify({title!r}) ({case}) should be {expected!r}, got {got!r}"


def test_long_title_is_cut_at_a_word_boundary():
    title = "How we migrated forty services to a new message queue in one weekend"
    got = slugify(title)
    assert got == "how-we-migrated-forty-services-to-a-new", (
        f"a long title is cut to at most 40 characters at a word boundary, got {got!r} ({len(got)} characters)"
    )


def test_the_cut_never_splits_a_word():
    got = slugify("Understanding async generators and context managers in Python")
    assert got == "understanding-async-generators-and", (
        f"the 40-character cut falls between words, never inside one; got {got!r}"
    )


def test_exactly_forty_is_kept_whole():
    title = "abcdefghij " * 3 + "abcdefg"  # 10+1+10+1+10+1+7 = 40 as a slug
    got = slugify(title)
    assert got == "abcdefghij-abcdefghij-abcdefghij-abcdefg", f"a 40-character slug is kept whole, got {got!r}"


def test_a_word_ending_at_forty_is_kept():
    """At most 40 characters, as many whole words as fit: a word that ends exactly at the 40th
    character fits, though more words follow it."""
    title = "abcdefghij " * 3 + "abcdefg and more"
    got = slugify(title)
    assert got == "abcdefghij-abcdefghij-abcdefghij-abcdefg", (
        f"the word ending at the 40th character fits within 40 and is kept, got {got!r}")


def test_one_long_word_is_cut_at_forty():
    got = slugify("x" * 45 + " tail")
    assert got == "x" * 40, f"a first word longer than 40 characters is cut at 40, got {got!r}"


@pytest.mark.parametrize("title", ["", "   ", "?!", "🎉🎉"])
def test_untitled(title):
    got = slugify(title)
    assert got == "untitled", f"slugify({title!r}) has no letters or digits left and should be 'untitled', got {got!r}"


def test_never_longer_than_forty():
    for n in range(1, 60):
        title = " ".join(["ab"] * n)
        got = slugify(title)
        assert len(got) <= 40 and not got.endswith("-"), f"slugify of {n} words gave {got!r}"
