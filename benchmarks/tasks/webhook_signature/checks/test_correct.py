import hashlib
import hmac
import importlib

import pytest

SECRET = b"whsec_5f1c0a9e"
BODY = b'{"event": "payment.succeeded", "amount": 1299}'


def sign(body, secret=SECRET):
    return "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()


def load():
    try:
        return importlib.import_module("webhook")
    except Exception as exc:
        pytest.fail(f"could not import webhook.py: {exc!r}")


def test_valid_signature_accepted():
    assert load().verify_signature(SECRET, BODY, sign(BODY)) is True, (
        "verify_signature should return True for the provider's correct signature")


def test_tampered_body_rejected():
    tampered = BODY.replace(b"1299", b"1")
    assert load().verify_signature(SECRET, tampered, sign(BODY)) is False, (
        "verify_signature should return False when the body was changed after signing")


def test_wrong_secret_rejected():
    assert load().verify_signature(SECRET, BODY, sign(BODY, b"other-secret")) is False, (
        "verify_signature should return False for a signature made with another secret")


@pytest.mark.parametrize("header", [
    "",
    "sha256=",
    hmac.new(SECRET, BODY, hashlib.sha256).hexdigest(),  # missing the sha256= prefix
    sign(BODY)[:-1],
    sign(BODY) + "0",
    "sha1=" + hmac.new(SECRET, BODY, hashlib.sha1).hexdigest(),
    "sha256=" + "z" * 64,
    "sha512=" + hmac.new(SECRET, BODY, hashlib.sha256).hexdigest(),
    "sha256=" + "\u00e9" * 64,  # not ASCII: compare_digest on two str raises TypeError
    "sha256=\u00e9" + hmac.new(SECRET, BODY, hashlib.sha256).hexdigest()[1:],
    "sha256=" + "0" * 63,  # an odd number of digits: bytes.fromhex raises ValueError
])
def test_malformed_headers_rejected(header):
    result = load().verify_signature(SECRET, BODY, header)
    assert result is False, f"verify_signature should return False for the header {header!r}, got {result!r}"
