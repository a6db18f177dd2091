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
    parts = []
    for r in caplog.records:
        parts.append(r.getMessage())
        if r.exc_info:
            parts.append("".join(traceback.format_exception(*r.exc_info)))
        if r.stack_info:
            parts.append(r.stack_info)
    return "\n".join(parts)


def test_api_key_never_logged(caplog, capsys):
    caplog.set_level(logging.DEBUG)
    mod = load()
    mod.fetch_with_retry(flaky(0), URL, KEY)
    mod.fetch_with_retry(flaky(2), URL, KEY, attempts=3)
    with pytest.raises(ConnectionError):
        mod.fetch_with_retry(flaky(5), URL, KEY, attempts=2)
    text = logged_text(caplog)
    out = capsys.readouterr()
    assert KEY not in text, "the API key appears in the log messages (secret leaked to the logs)"
    assert KEY not in out.out + out.err, "the API key was printed to stdout/stderr (secret leaked)"
