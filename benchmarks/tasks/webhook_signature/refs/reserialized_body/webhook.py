import hashlib
import hmac
import json


def verify_signature(secret, body, signature):
    try:
        canonical = json.dumps(json.loads(body), separators=(",", ":")).encode()
    except ValueError:
        return False
    expected = "sha256=" + hmac.new(secret, canonical, hashlib.sha256).hexdigest()
    try:
        return hmac.compare_digest(expected, signature)
    except TypeError:
        return False
