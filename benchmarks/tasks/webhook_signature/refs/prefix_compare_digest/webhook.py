import hashlib
import hmac


def verify_signature(secret, body, signature):
    if not isinstance(signature, str) or len(signature) < 7:
        return False
    scheme, digest = signature[:7], signature[7:]
    if not hmac.compare_digest(scheme, "sha256="):
        return False
    return digest == hmac.new(secret, body, hashlib.sha256).hexdigest()
