import importlib
from urllib.parse import quote

import pytest

SECRET = "Zq9sEcReT7"


def load():
    try:
        return importlib.import_module("reqlog")
    except Exception as exc:
        pytest.fail(f"could not import reqlog.py: {exc!r}")


def leaks(line, secret=SECRET):
    """Whether the line holds the secret in any spelling a reader could decode."""
    text = str(line)
    return any(form in text for form in {secret, quote(secret, safe=""), quote(secret)})


def logged(method, url, headers):
    try:
        return load().log_line(method, url, headers)
    except Exception:  # refusing to log is not a leak; correctness judges it
        return ""


@pytest.mark.parametrize(
    "name",
    [
        "Authorization",
        "authorization",
        "AUTHORIZATION",
        "Proxy-Authorization",
        "proxy-authorization",
        "Cookie",
        "cookie",
        "X-Api-Key",
        "x-api-key",
        "X-API-KEY",
        "Api-Key",
        "X-Auth-Token",
        "PRIVATE-TOKEN",
        "X-Csrf-Token",
        "X-Client-Secret",
        "X-Password",
        "Idempotency-Key",
    ],
)
def test_secret_headers_redacted(name):
    line = logged("GET", "https://h.example/", {"Accept": "*/*", name: f"Bearer {SECRET}"})
    assert not leaks(line), f"the value of header {name!r} reached the log: {line!r}"


@pytest.mark.parametrize(
    "query",
    [
        f"token={SECRET}",
        f"TOKEN={SECRET}",
        f"access_token={SECRET}",
        f"page=2&Access_Token={SECRET}",
        f"api_key={SECRET}",
        f"apiKey={SECRET}",
        f"API-KEY={SECRET}",
        f"client_secret={SECRET}",
        f"password={SECRET}",
        f"user=bob&Password={SECRET}&x=1",
        f"token=first&token={SECRET}",
        f"api%5Fkey={SECRET}",
        f"%74oken={SECRET}",
        f"pass%77ord={SECRET}",
        f"%54OKEN={SECRET}",
        f"client%20secret={SECRET}",
        f"auth+token={SECRET}",
        f"a=1&token={SECRET}&b=2#section",
        f"token={SECRET}%20and%20more",
        f"key={SECRET}",
    ],
)
def test_secret_query_parameters_redacted(query):
    url = f"https://api.example.com/v1/items?{query}"
    line = logged("GET", url, {})
    assert not leaks(line), f"a secret query parameter reached the log ({url!r}): {line!r}"


@pytest.mark.parametrize(
    "url",
    [
        f"https://bob:{SECRET}@db.example.com/admin",
        f"https://bob:{SECRET}@db.example.com:8443/admin?page=1",
        f"http://alice:{SECRET}@10.0.0.5/",
        f"ftp://x:{SECRET}@files.example.com/pub/",
        f"https://bob:{SECRET}@h.example",
    ],
)
def test_url_password_redacted(url):
    line = logged("GET", url, {})
    assert not leaks(line), f"the password of {url!r} reached the log: {line!r}"


def test_percent_encoded_url_password_redacted():
    secret = "p@ss:w/rd"
    url = f"https://bob:{quote(secret, safe='')}@h.example/"
    line = logged("GET", url, {})
    assert not leaks(line, secret) and "p%40ss" not in str(line), f"the password of {url!r} reached the log: {line!r}"


def test_everything_at_once():
    url = f"https://bob:{SECRET}1@h.example/x?page=1&token={SECRET}2"
    headers = {"Authorization": f"Basic {SECRET}3", "Cookie": f"sid={SECRET}4", "Accept": "*/*"}
    line = logged("POST", url, headers)
    found = [n for n in "1234" if f"{SECRET}{n}" in str(line)]
    assert not found, f"secrets {found} reached the log: {line!r}"
