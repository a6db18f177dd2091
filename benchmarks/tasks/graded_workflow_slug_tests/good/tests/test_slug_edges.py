from slug import slugify


def test_underscores_split_words():
    assert slugify("snake_case_title") == "snake-case-title"


def test_exactly_forty_is_kept():
    assert len(slugify("abcdefghij " * 3 + "abcdefg")) == 40
