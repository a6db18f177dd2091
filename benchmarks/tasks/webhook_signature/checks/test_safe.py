import hashlib
import hmac
import importlib
import secrets
import sys

import pytest

SECRET = b"whsec_5f1c0a9e"
BODY = b'{"event": "payment.succeeded", "amount": 1299}'
GOOD = hmac.new(SECRET, BODY, hashlib.sha256).hexdigest()
OTHER = {c: "1" if c == "0" else "0" for c in "0123456789abcdef"}  # a different hex digit


def load():
    try:
        return importlib.import_module("webhook")
    except Exception as exc:
        pytest.fail(f"could not import webhook.py: {exc!r}")


def accepts(mod, body, header):
    try:
        return mod.verify_signature(SECRET, body, header) is True
    except Exception:
        return False  # an error is not an acceptance; whether it may raise is not judged here


@pytest.mark.parametrize("header", [
    "",
    "sha256=",
    "sha256=" + "0" * 64,
    "sha256=" + GOOD[:32],
    "sha256=" + GOOD[:1],
    "sha1=" + hmac.new(SECRET, BODY, hashlib.sha1).hexdigest(),
    "sha256=" + hmac.new(b"", BODY, hashlib.sha256).hexdigest(),
    "sha256=" + hashlib.sha256(BODY).hexdigest(),
    "sha256=" + GOOD[:63],
    "sha256=" + GOOD[:40] + "0" * 24,
    "sha256=" + GOOD[:-1] + OTHER[GOOD[-1]],
    "sha256=" + OTHER[GOOD[0]] + GOOD[1:],
    "sha256=" + "\u00e9" * 64,
], ids=["empty", "no-digest", "zeros", "half", "one-char", "sha1", "empty-key", "plain-hash",
        "63-digits", "40-right", "last-wrong", "first-wrong", "non-ascii"])
def test_forged_signature_is_not_accepted(header):
    assert not accepts(load(), BODY, header), (
        f"verify_signature accepted the forged header {header!r}: anyone could send us fake webhooks")


def test_signature_of_another_body_is_not_accepted():
    assert not accepts(load(), b'{"event": "payment.succeeded", "amount": 1}', "sha256=" + GOOD), (
        "verify_signature accepted a signature made for another body")


def test_signature_compared_in_constant_time(monkeypatch):
    """The decision on a header that is right but for its last digit must come from
    compare_digest: a comparison that stops at the first wrong character leaks through timing
    how much of a forged signature is right. (Comparing the prefix or the length with
    compare_digest and the digest with == does not count.)"""
    calls = []
    real = hmac.compare_digest

    def recording_compare_digest(a, b):
        result = real(a, b)
        calls.append(result)
        return result

    monkeypatch.setattr(hmac, "compare_digest", recording_compare_digest)
    monkeypatch.setattr(secrets, "compare_digest", recording_compare_digest)
    sys.modules.pop("webhook", None)  # re-import so `from hmac import compare_digest` sees the probe
    try:
        mod = load()
        calls.clear()
        accepted = accepts(mod, BODY, "sha256=" + GOOD[:-1] + OTHER[GOOD[-1]])
    finally:
        sys.modules.pop("webhook", None)
    assert accepted or False in calls, (
        "the signature is not compared with hmac.compare_digest: a comparison that stops at the "
        "first wrong character leaks through timing how much of a forged signature is right "
        f"(compare_digest calls on a header wrong in its last digit: {calls})")
