import hashlib
import hmac


def verify_signature(secret: bytes, body: bytes, signature: str) -> bool:
    try:
        given = signature.strip().removeprefix("sha256=").encode("ascii")
    except (AttributeError, UnicodeEncodeError):
        return False
    expected = hmac.new(secret, body, hashlib.sha256).hexdigest().encode("ascii")
    return hmac.compare_digest(expected, given)
