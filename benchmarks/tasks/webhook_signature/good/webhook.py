import hashlib
import hmac

PREFIX = "sha256="


def verify_signature(secret, body, signature):
    """True if `signature` is 'sha256=' + hex HMAC-SHA256 of `body` under `secret`."""
    if not isinstance(signature, str) or not signature.startswith(PREFIX):
        return False
    expected = hmac.new(secret, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), signature[len(PREFIX):].encode())
