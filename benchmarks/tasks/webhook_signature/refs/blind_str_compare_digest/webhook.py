import hashlib
import hmac


def verify_signature(secret: bytes, body: bytes, signature: str) -> bool:
    if not isinstance(signature, str) or not signature.startswith("sha256="):
        return False
    expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)
