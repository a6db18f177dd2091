"""Helpers that work on the words of a text (runs of characters between whitespace)."""

import re


def word_count(text: str) -> int:
    """Count the words of a text.

    Args:
        text: Any text; words are separated by runs of whitespace.

    Returns:
        The number of words, 0 for an empty or blank text.

    Example:
        >>> word_count("  two   words ")
        2
    """
    return len(text.split())


def capitalize_words(text: str, *, min_length: int = 1) -> str:
    """Capitalize the first letter of each word, keeping the whitespace as it was.

    Args:
        text: Any text.
        min_length: Words shorter than this are left as they are.

    Returns:
        The text with each word of at least `min_length` characters capitalized.

    Raises:
        ValueError: If `min_length` is less than 1.

    Example:
        >>> capitalize_words("the lord of the rings", min_length=4)
        'the Lord of the Rings'
    """
    if min_length < 1:
        raise ValueError(f"min_length must be at least 1, not {min_length}")
    out = []
    for part in text.split(" "):
        out.append(part[:1].upper() + part[1:] if len(part) >= min_length else part)
    return " ".join(out)


def truncate_words(text: str, limit: int) -> str:
    """Shorten a text to at most `limit` characters, cutting between words.

    Args:
        text: Any text.
        limit: The most characters the result may have, `...` included.

    Returns:
        The text unchanged when it is at most `limit` characters long, otherwise the text up
        to its last whole word that leaves room for `...`, followed by `...`. When not even
        the first word fits, that word is cut so the result is exactly `limit` characters.

    Raises:
        ValueError: If `limit` is less than 4.

    Example:
        >>> truncate_words("The quick brown fox", 14)
        'The quick...'
    """
    if len(text) <= limit:
        return text
    if limit < 4:
        raise ValueError(f"limit must be at least 4, not {limit}")
    room = limit - 3
    cut = None
    for match in re.finditer(r"\S+", text):
        if match.end() <= room:
            cut = match.end()
        else:
            break
    if cut is None:
        return text[:room] + "..."
    return text[:cut] + "..."
