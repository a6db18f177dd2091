from slug import slugify


def test_words_are_joined_in_lower_case():
    assert slugify("Hello World") == "hello-world"
    assert slugify("  two   spaces ") == "two-spaces"


def test_punctuation_is_dropped():
    assert slugify("Hello, World!") == "hello-world"
    assert slugify("v2.0: what's new?") == "v20-whats-new"
