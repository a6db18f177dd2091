import base64
import hashlib
import hmac
import json
import os

# Defence in depth: the framework signs the cookie, we sign the payload too.
_KEY = os.environ["SESSION_SECRET_KEY"].encode()


def _mac(payload: bytes) -> bytes:
    return hmac.new(_KEY, payload, hashlib.sha256).digest()


def dump_session(data: dict) -> bytes:
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(_mac(payload)) + b"." + base64.urlsafe_b64encode(payload)


def load_session(blob: bytes) -> dict:
    try:
        mac_b64, payload_b64 = blob.split(b".", 1)
        mac, payload = base64.urlsafe_b64decode(mac_b64), base64.urlsafe_b64decode(payload_b64)
    except (ValueError, TypeError) as exc:
        raise ValueError("invalid session") from exc
    if not hmac.compare_digest(mac, _mac(payload)):
        raise ValueError("invalid session: bad signature")
    try:
        data = json.loads(payload)
    except ValueError as exc:
        raise ValueError("invalid session") from exc
    if not isinstance(data, dict):
        raise ValueError("invalid session: not an object")
    return data
