import hashlib
import hmac


def verify_signature(secret: bytes, body: bytes, signature: str) -> bool:
    scheme, _, digest_hex = signature.partition("=")
    if scheme != "sha256":
        return False
    digest = bytes.fromhex(digest_hex)
    return hmac.compare_digest(hmac.new(secret, body, hashlib.sha256).digest(), digest)
