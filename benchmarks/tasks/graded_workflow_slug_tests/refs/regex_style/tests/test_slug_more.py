from slug import slugify


def test_digits_are_kept():
    assert slugify("Top 10 tips") == "top-10-tips"
