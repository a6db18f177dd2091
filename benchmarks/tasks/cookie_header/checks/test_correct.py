import importlib

import pytest

def load():
    try:
        return importlib.import_module("cookies")
    except Exception as exc:
        pytest.fail(f"could not import cookies.py: {exc!r}")


@pytest.mark.parametrize("name, value", [("lang", "en-US"), ("theme", "dark"), ("s_id", "a1b2.c3~"), ("x", ""),
                                         ("p", "!#$%&'()*+-./:<=>?@[]^_`{|}~"), ("n!#$%&'*+.^_`|~-", "v")])
def test_header_line(name, value):
    got = load().set_cookie_header(name, value)
    assert got == f"Set-Cookie: {name}={value}; Path=/; HttpOnly", f"unexpected header {got!r}"


@pytest.mark.parametrize("name, value", [
    ("lang", "en US"), ("lang", "a;b"), ("lang", 'a"b'), ("lang", "a,b"), ("lang", "a\\b"),
    ("la ng", "x"), ("la;ng", "x"), ("", "x"), ("lang", "é"), ("lang", "a\x7fb"), ("la(ng", "x"),
    ("la=ng", "x"),
    # a trailing line break ($ in a regex matches before it), a tab, non-ASCII letters and
    # digits (str.isalnum() takes them), and control characters
    ("lang", "dark\n"), ("lang\n", "x"), ("lang", "a\tb"), ("läng", "x"), ("ß", "x"), ("n²", "x"),
    ("lang", "x\x00"), ("lang", "١٢"),
])
def test_bad_names_and_values_raise(name, value):
    with pytest.raises(ValueError):
        load().set_cookie_header(name, value)
        pytest.fail(f"set_cookie_header({name!r}, {value!r}) should raise ValueError")
