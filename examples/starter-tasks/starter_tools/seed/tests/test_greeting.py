from greeting import greeting


def test_greets_by_name():
    assert greeting("Ada") == "Hello, Ada!"


def test_surrounding_spaces_are_dropped():
    assert greeting("  Grace ") == "Hello, Grace!"


def test_no_name_greets_a_stranger():
    assert greeting("") == "Hello, stranger!"
