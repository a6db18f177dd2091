from slug import slugify


def test_lowercase_words_joined_by_dashes():
    assert slugify("Hello World") == "hello-world"


def test_punctuation_and_spaces_collapse_into_one_dash():
    assert slugify("  Rust, Go & Python!  ") == "rust-go-python"


def test_accents_are_dropped():
    assert slugify("Crème brûlée à Zürich") == "creme-brulee-a-zurich"


def test_at_most_40_characters_cut_at_a_word():
    title = "The quick brown fox jumps over the lazy dog again and again"
    assert slugify(title) == "the-quick-brown-fox-jumps-over-the-lazy"


def test_a_single_long_word_is_cut_at_40():
    assert len(slugify("a" * 50)) <= 50


def test_nothing_left_gives_untitled():
    assert slugify("!!! ???") == "untitled"
    assert slugify("") == "untitled"
