import hashlib
import hmac


def verify_signature(secret, body, signature):
    if not signature.startswith("sha256="):
        return False
    given = signature[len("sha256="):]
    expected = hmac.new(secret, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected[: len(given)], given)
