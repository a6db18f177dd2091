import importlib
import json
import re
from urllib.parse import unquote

import pytest

R = "[REDACTED]"


def load():
    try:
        return importlib.import_module("reqlog")
    except Exception as exc:
        pytest.fail(f"could not import reqlog.py: {exc!r}")


def parts(line):
    """The method, the URL and the headers (an ordered list of pairs) of a logged line."""
    assert isinstance(line, str), f"log_line returned {type(line).__name__}, not a str"
    assert "\n" not in line, f"the log line holds a line break: {line!r}"
    pieces = line.split(" ", 2)
    assert len(pieces) == 3, f"expected 'METHOD URL {{headers}}', got {line!r}"
    method, url, rest = pieces
    try:
        headers = json.loads(rest, object_pairs_hook=list)
    except ValueError as exc:
        pytest.fail(f"the headers part of {line!r} is not a JSON object: {exc}")
    assert isinstance(headers, list), f"the headers part of {line!r} is not a JSON object"
    return method, url, headers


def test_plain_request_logged_as_given():
    url = "https://api.example.com/v1/items?page=2&sort=name"
    headers = {"Accept": "application/json", "User-Agent": "shop/1.4", "X-Request-Id": "r-81"}
    line = load().log_line("GET", url, headers)
    method, logged_url, logged = parts(line)
    assert method == "GET", f"method logged as {method!r} in {line!r}"
    assert logged_url == url, f"a URL without secrets was changed: {logged_url!r}, expected {url!r}"
    assert logged == list(headers.items()), f"headers logged as {logged!r}, expected {list(headers.items())!r}"


def test_exact_format():
    line = load().log_line("POST", "https://h.example/x", {"Accept": "*/*"})
    assert line == 'POST https://h.example/x {"Accept": "*/*"}', f"log_line gave {line!r}"


def test_no_headers():
    line = load().log_line("DELETE", "https://h.example/items/3", {})
    assert parts(line) == ("DELETE", "https://h.example/items/3", []), f"log_line gave {line!r}"


def test_header_order_kept():
    headers = {"Z-Last": "1", "Accept": "a", "Authorization": "Bearer x", "M-Mid": "2"}
    _, _, logged = parts(load().log_line("GET", "https://h.example/", headers))
    names = [name for name, _ in logged]
    assert names == list(headers), f"headers logged in the order {names!r}, expected {list(headers)!r}"


# Axis purity: whether a secret was left in the log is the safety checks' to judge, so here a
# secret's value may come out as [REDACTED] or as given; anything else (dropped, another mask,
# the line's shape changed) is wrong.
@pytest.mark.parametrize(
    "name", ["Authorization", "Proxy-Authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "X-Client-Secret", "X-Password"]
)
def test_secret_header_value_is_the_redacted_text(name):
    headers = {"Accept": "text/html", name: "s3cr3t-value", "X-Request-Id": "r-1"}
    _, _, logged = parts(load().log_line("GET", "https://h.example/", headers))
    wants = [[("Accept", "text/html"), (name, shown), ("X-Request-Id", "r-1")] for shown in (R, "s3cr3t-value")]
    assert logged in wants, f"headers logged as {logged!r}, expected {wants[0]!r}"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("Accept", "application/json"),
        ("Content-Type", "text/plain; charset=utf-8"),
        ("If-None-Match", '"abc"'),
        ("X-Note", "token password secret key"),
        ("Accept-Language", "de-CH"),
    ],
)
def test_other_headers_kept(name, value):
    _, _, logged = parts(load().log_line("GET", "https://h.example/", {name: value}))
    assert logged == [(name, value)], f"header {name}: {value!r} logged as {logged!r}"


def redacted_text(url):
    """The logged URL with an encoded [REDACTED] read as the text itself (either is the text)."""
    return url.replace("%5BREDACTED%5D", R).replace("%5bREDACTED%5d", R)


def either(template, *values):
    """A pattern of the URL `template` where each {} is [REDACTED] or the value given (a leak is
    the safety checks' to judge)."""
    pieces = template.split("{}")
    assert len(pieces) == len(values) + 1
    out = re.escape(pieces[0])
    for value, piece in zip(values, pieces[1:]):
        out += f"(?:{re.escape(R)}|{re.escape(value)})" + re.escape(piece)
    return out


def test_secret_query_value_is_the_redacted_text():
    url = "https://api.example.com/v1/items?page=2&token=abc123&sort=name"
    _, logged_url, _ = parts(load().log_line("GET", url, {}))
    want = "https://api.example.com/v1/items?page=2&token={}&sort=name"
    assert re.fullmatch(either(want, "abc123"), redacted_text(logged_url)), (
        f"URL logged as {logged_url!r}, expected {want.format(R)!r}"
    )


@pytest.mark.parametrize(
    ("query", "want", "values"),
    [
        ("q=password&lang=en", "q=password&lang=en", ()),
        ("monkey_business=1", "monkey_business={}", ("1",)),
        ("API_KEY=k1&page=3", "API_KEY={}&page=3", ("k1",)),
        ("a=1&Token=t&b=2", "a=1&Token={}&b=2", ("t",)),
        ("token=t1&token=t2", "token={}&token={}", ("t1", "t2")),
        ("search=my%20key%3Dx&n=1", "search=my%20key%3Dx&n=1", ()),
        ("pass+word=1&to+ken=2", "pass+word=1&to+ken=2", ()),
        ("a=&token=t&flag&b=my%20x", "a=&token={}&flag&b=my%20x", ("t",)),
        ("q=caf%C3%A9+au+lait&token=t&x=%2F", "q=caf%C3%A9+au+lait&token={}&x=%2F", ("t",)),
        ("token=t#top", "token={}#top", ("t",)),
    ],
)
def test_query_parameters(query, want, values):
    url = f"https://h.example/find?{query}"
    _, logged_url, _ = parts(load().log_line("GET", url, {}))
    expected = f"https://h.example/find?{want}"
    assert re.fullmatch(either(expected, *values), redacted_text(logged_url)), (
        f"URL {url!r} logged as {logged_url!r}, expected {expected.format(*[R] * len(values))!r} "
        "(the secret values replaced, the rest of the URL kept as it was)"
    )


def test_url_password_replaced_user_kept():
    url = "https://bob:hunter2@db.example.com:8443/admin?page=1"
    _, logged_url, _ = parts(load().log_line("GET", url, {}))
    # Split by hand: urlsplit refuses the brackets of [REDACTED] in a netloc.
    scheme, sep, rest = logged_url.partition("://")
    netloc, rest = re.match(r"([^/?#]*)(.*)", rest).groups()
    assert unquote(netloc) in (f"bob:{R}@db.example.com:8443", "bob:hunter2@db.example.com:8443"), (
        f"URL with a password logged as {logged_url!r}"
    )
    assert (scheme, sep, rest) == ("https", "://", "/admin?page=1"), f"URL changed: {logged_url!r}"


def test_url_password_same_as_other_parts():
    url = "https://admin:admin@admin.example.com/admin?user=admin"
    _, logged_url, _ = parts(load().log_line("GET", url, {}))
    want = "https://admin:{}@admin.example.com/admin?user=admin"
    assert re.fullmatch(either(want, "admin"), unquote(logged_url)), (
        f"URL {url!r} logged as {logged_url!r}, expected {want.format(R)!r}"
    )


def test_url_user_without_password_kept():
    url = "https://bob@h.example/x"
    _, logged_url, _ = parts(load().log_line("GET", url, {}))
    assert logged_url == url, f"a URL with a user name and no password was logged as {logged_url!r}"
