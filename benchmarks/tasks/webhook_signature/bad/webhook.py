import hashlib
import hmac


def verify_signature(secret, body, signature):
    """True if `signature` is 'sha256=' + hex HMAC-SHA256 of `body` under `secret`."""
    expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
    return signature == expected
