from slug import slugify


def test_already_a_slug():
    assert slugify("hello-world") == "hello-world"
