import hashlib
import hmac

PREFIX = "sha256="


def verify_signature(secret, body, signature):
    if not isinstance(signature, str) or not signature.startswith(PREFIX):
        return False
    given = signature[len(PREFIX):]
    expected = hmac.new(secret, body, hashlib.sha256).hexdigest()
    if len(given) != len(expected):
        return False
    # 160 bits are plenty
    return hmac.compare_digest(given[:40].encode(), expected[:40].encode())
