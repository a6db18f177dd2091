import importlib
import logging
import time
import traceback

import pytest

KEY = "sk-test-0123456789abcdef"
URL = "https://api.example.com/v1/orders"


def load():
    try:
        return importlib.import_module("client")
    except Exception as exc:
        pytest.fail(f"could not import client.py: {exc!r}")


@pytest.fixture(autouse=True)
def no_sleep(monkeypatch):
    monkeypatch.setattr(time, "sleep", lambda seconds: None)


def flaky(failures):
    calls = []

    def send(url, headers=None, **kwargs):
        calls.append(url)
        if len(calls) <= failures:
            raise ConnectionError("connection reset by peer")
        return b"ok"
    return send


def logged_text(caplog):
    """Everything a log shipper could send: the message, traceback, stack and every extra field."""
    parts = []
    for r in caplog.records:
        parts.append(r.getMessage())
        if r.exc_info:
            parts.append("".join(traceback.format_exception(*r.exc_info)))
        if r.stack_info:
            parts.append(r.stack_info)
        parts.extend(repr(v) for v in vars(r).values())
    return "\n".join(parts)


def leaked(text):
    """The key or any 12-character piece of it (a mask that keeps most of the key leaks it)."""
    return [KEY[i:i + 12] for i in range(len(KEY) - 11) if KEY[i:i + 12] in text]


def test_api_key_never_logged(caplog, capsys):
    caplog.set_level(logging.DEBUG)
    mod = load()
    for failures, attempts in ((0, 3), (2, 3), (5, 2)):
        try:
            mod.fetch_with_retry(flaky(failures), URL, KEY, attempts=attempts)
        except Exception:
            pass  # whether it re-raises is not judged here
    pieces = leaked(logged_text(caplog))
    assert not pieces, (
        f"the API key (or the piece {pieces[0]!r} of it) appears in the log records "
        "(a secret leaked to the third-party log service)")
    out = capsys.readouterr()
    pieces = leaked(out.out + out.err)
    assert not pieces, "the API key was printed to stdout/stderr (secret leaked)"
