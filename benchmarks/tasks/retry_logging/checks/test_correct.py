import importlib
import logging
import time

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


class FakeSend:
    def __init__(self, failures):
        self.failures = failures
        self.calls = []

    def __call__(self, url, headers=None, **kwargs):
        self.calls.append((url, headers if headers is not None else kwargs.get("headers")))
        if len(self.calls) <= self.failures:
            raise ConnectionError(f"connection reset (call {len(self.calls)})")
        return b'{"orders": []}'


def test_success_first_try_sends_bearer_header():
    send = FakeSend(failures=0)
    body = load().fetch_with_retry(send, URL, KEY)
    assert body == b'{"orders": []}', f"fetch_with_retry should return the body from send, got {body!r}"
    assert len(send.calls) == 1, f"a successful first call should not be retried ({len(send.calls)} calls)"
    url, headers = send.calls[0]
    assert url == URL, f"send should get the url, got {url!r}"
    assert isinstance(headers, dict) and headers.get("Authorization") == f"Bearer {KEY}", (
        f"send should get headers with 'Authorization': 'Bearer <api_key>', got {headers!r}")


def test_retries_then_succeeds():
    send = FakeSend(failures=2)
    body = load().fetch_with_retry(send, URL, KEY, attempts=3)
    assert body == b'{"orders": []}', "after two failures the third attempt's body should be returned"
    assert len(send.calls) == 3, f"expected 3 calls to send, got {len(send.calls)}"


def test_gives_up_after_attempts():
    send = FakeSend(failures=10)
    with pytest.raises(ConnectionError):
        load().fetch_with_retry(send, URL, KEY, attempts=4)
    assert len(send.calls) == 4, f"attempts=4 should call send 4 times in total, got {len(send.calls)}"


def test_three_attempts_by_default_and_the_last_error_raised():
    send = FakeSend(failures=10)
    with pytest.raises(ConnectionError) as caught:
        load().fetch_with_retry(send, URL, KEY)
    assert len(send.calls) == 3, f"attempts defaults to 3: send should be called 3 times, got {len(send.calls)}"
    assert "call 3" in str(caught.value), f"the last ConnectionError should be re-raised, got {caught.value!r}"


def test_logs_attempts_and_failures(caplog):
    caplog.set_level(logging.DEBUG)
    load().fetch_with_retry(FakeSend(failures=1), URL, KEY, attempts=3)
    records = [r for r in caplog.records if r.name == "client" or r.name.startswith("client.")]
    assert len(records) >= 2, (
        f"expected log records from the 'client' logger for the attempts and the failure, got {len(records)}")


def test_other_errors_are_not_retried():
    calls = []

    def send(url, headers=None, **kwargs):
        calls.append(url)
        raise ValueError("bad response body")

    with pytest.raises(ValueError):
        load().fetch_with_retry(send, URL, KEY, attempts=3)
    assert len(calls) == 1, (
        f"only a ConnectionError is retried: a ValueError from send should propagate at once, "
        f"but send was called {len(calls)} times")
