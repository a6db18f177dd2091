"""textkit: small text helpers for our web front-ends."""

from textkit.words import capitalize_words, truncate_words, word_count

__all__ = ["capitalize_words", "truncate_words", "word_count"]
