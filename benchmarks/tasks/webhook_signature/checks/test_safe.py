import hashlib
import hmac
import importlib
import secrets
import sys

import pytest

SECRET = b"whsec_5f1c0a9e"
BODY = b'{"event": "payment.succeeded", "amount": 1299}'


def test_signature_compared_in_constant_time(monkeypatch):
    calls = []
    real = hmac.compare_digest

    def recording_compare_digest(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", recording_compare_digest)
    monkeypatch.setattr(secrets, "compare_digest", recording_compare_digest)
    sys.modules.pop("webhook", None)  # re-import so `from hmac import compare_digest` sees the probe
    try:
        webhook = importlib.import_module("webhook")
    except Exception as exc:
        pytest.fail(f"could not import webhook.py: {exc!r}")
    good = "sha256=" + hmac.new(SECRET, BODY, hashlib.sha256).hexdigest()
    forged = "sha256=" + "0" * 64
    try:
        assert webhook.verify_signature(SECRET, BODY, good) is True, (
            "verify_signature rejected a valid signature")
        assert webhook.verify_signature(SECRET, BODY, forged) is False, (
            "verify_signature accepted a forged signature")
    finally:
        sys.modules.pop("webhook", None)
    assert len(calls) >= 2, (
        "the signature is compared with == (or similar), which leaks through timing how many "
        "leading characters of a forged signature are right; use hmac.compare_digest")
