from slug import slugify


def test_digits_and_apostrophes():
    assert slugify("Python 3.12 is out") == "python-3-12-is-out"


def test_already_a_slug():
    assert slugify("hello-world") == "hello-world"
