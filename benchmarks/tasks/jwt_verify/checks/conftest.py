"""The JavaScript runner (js_runner.py) and JWTs for the checks."""

import base64
import hashlib
import hmac
import json

from js_runner import js, js_batch  # noqa: F401  (the fixtures)

# --- JWTs for the checks, built independently of the code under test -------------------------

SECRET = "s3cr3t-signing-key"
NOW = 1_700_000_000


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def part(value) -> str:
    raw = value if isinstance(value, bytes) else json.dumps(value, separators=(",", ":")).encode()
    return b64(raw)


def sign(signing_input: str, secret: str = SECRET, digest=hashlib.sha256) -> str:
    return b64(hmac.new(secret.encode(), signing_input.encode(), digest).digest())


def token(payload, header=None, secret: str = SECRET, digest=hashlib.sha256) -> str:
    head = part(header if header is not None else {"alg": "HS256", "typ": "JWT"})
    body = part(payload)
    return f"{head}.{body}.{sign(f'{head}.{body}', secret, digest)}"


def verify_js(tokens, secret=SECRET, now=NOW):
    """JS that runs verifyToken on each token and reports the outcome: payload, or the error."""
    now_js = "undefined" if now is None else json.dumps(now)
    return f"""
        const {{ verifyToken, TokenError }} = {{ verifyToken: pick('verifyToken'), TokenError: pick('TokenError') }};
        if (typeof verifyToken !== "function") throw new Error("jwt.js does not export a function verifyToken");
        return {json.dumps(tokens)}.map((t) => {{
            try {{
                return {{ ok: true, value: verifyToken(t, {json.dumps(secret)}, {now_js}) }};
            }} catch (e) {{
                return {{ ok: false, name: e?.name, message: String(e?.message ?? e), isError: e instanceof Error,
                          isTokenError: typeof TokenError === "function" && e instanceof TokenError }};
            }}
        }});
    """
