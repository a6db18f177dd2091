import hashlib
import hmac


def verify_signature(secret, body, signature):
    expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
    try:
        return hmac.compare_digest(expected, signature)
    except TypeError:  # not a str, or not ASCII
        return False
