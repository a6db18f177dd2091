import hashlib
import hmac


def verify_signature(secret, body, signature):
    if not isinstance(signature, str) or not signature.startswith("sha256="):
        return False
    given = signature[len("sha256="):]
    expected = hmac.new(secret, body, hashlib.sha256).hexdigest()
    if len(given) != len(expected):
        return False
    for x, y in zip(given, expected):
        if x != y:
            return False
    return True
