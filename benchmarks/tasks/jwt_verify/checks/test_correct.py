import hashlib
import time

import pytest
from conftest import NOW, SECRET, b64, part, sign, token, verify_js

CLAIMS = {"sub": "user-42", "scope": ["read", "write"], "exp": NOW + 600}


def signed_raw(header_raw: bytes, payload_raw: bytes) -> str:
    head, body = b64(header_raw), b64(payload_raw)
    return f"{head}.{body}.{sign(f'{head}.{body}')}"


def outcomes(js, tokens, **kw):
    return js("jwt.js", verify_js(tokens, **kw))


def test_valid_token_returns_its_payload(js):
    (got,) = outcomes(js, [token(CLAIMS)])
    assert got["ok"], f"a valid HS256 token was refused: {got.get('name')}: {got.get('message')}"
    assert got["value"] == CLAIMS, f"verifyToken should return the payload {CLAIMS}, got {got['value']!r}"


VALID = [
    ({"exp": NOW + 1}, None),
    ({"exp": NOW + 0.5, "nbf": NOW}, None),
    ({"exp": NOW + 10, "nbf": NOW - 10, "iat": NOW - 10, "name": "Zoë ✓"}, None),
    ({"exp": NOW + 10}, {"alg": "HS256"}),
    ({"exp": NOW + 10}, {"typ": "JWT", "alg": "HS256", "kid": "k1"}),
    ({"exp": 1e12}, None),
]
VALID_IDS = ["exp-in-1s", "nbf-now", "claims", "no-typ", "kid", "far-exp"]


@pytest.mark.parametrize("payload, header", VALID, ids=VALID_IDS)
def test_valid_tokens_are_accepted(verdicts, payload, header):
    got = verdicts[token(payload, header)]
    assert got["ok"] and got["value"] == payload, (
        f"the valid token with payload {payload} and header {header} should return its payload, got {got}")


def test_now_defaults_to_the_clock(js):
    now = int(time.time())
    live, old = token({"exp": now + 3600}), token({"exp": now - 3600})
    got = outcomes(js, [live, old], now=None)
    assert got[0]["ok"], f"without nowSeconds, a token valid for another hour was refused: {got[0]}"
    assert not got[1]["ok"] and got[1]["isTokenError"], (
        f"without nowSeconds, a token that expired an hour ago should throw a TokenError: {got[1]}")


MALFORMED = [
    "", "abc", "a.b", "a.b.c.d", "..", token(CLAIMS) + ".", "." + token(CLAIMS),
    part(b"not json") + "." + part(CLAIMS) + ".x",
    part([1, 2]) + "." + part(CLAIMS) + ".x",
]
MALFORMED_IDS = ["empty", "one", "two", "four", "dots", "trailing-dot", "leading-dot", "bad-json", "array-header"]


@pytest.mark.parametrize("tok", MALFORMED, ids=MALFORMED_IDS)
def test_malformed_tokens_throw_token_error(verdicts, tok):
    got = verdicts[tok]
    assert not got["ok"], f"verifyToken({tok!r}) should throw"
    assert got["isTokenError"] and got["isError"], (
        f"verifyToken({tok!r}) should throw a TokenError (an Error), got {got.get('name')}: {got.get('message')}")


REFUSE = [
    signed_raw(b'{"alg":"HS256"}', b"[1,2]"),
    signed_raw(b'{"alg":"HS256"}', b"42"),
    signed_raw(b'{"alg":"HS256"}', b"null"),
    signed_raw(b'{"alg":"HS256"}', b"{oops"),
    signed_raw(b"null", b'{"exp": 1800000000}'),
    token({"exp": NOW + 10}, {"alg": "HS512"}, digest=hashlib.sha512),
    token({"exp": NOW + 10}, {"alg": "HS384"}, digest=hashlib.sha384),
    token({"exp": NOW + 10}, {"alg": "hs256"}),
    token({"exp": NOW + 10}, {"typ": "JWT"}),
    token({"exp": NOW}),
    token({"exp": NOW - 0.5}),
    token({"exp": NOW + 10, "nbf": NOW + 1}),
    token({"exp": NOW + 10, "nbf": NOW + 0.5}),
    token(CLAIMS).rsplit(".", 1)[0] + ".",
    token(CLAIMS)[:-10],
    token(CLAIMS).rsplit(".", 1)[0] + "." + token(CLAIMS).rsplit(".", 1)[1][:1],
    token(CLAIMS) + "AAAA",
]
REFUSE_IDS = ["array-payload", "number-payload", "null-payload", "broken-payload", "null-header", "hs512", "hs384",
        "lowercase-alg", "no-alg", "exp-now", "exp-just-past", "nbf-in-1s", "nbf-in-half-s",
        "empty-sig", "truncated-sig", "one-char-sig", "long-sig"]


@pytest.mark.parametrize("tok", REFUSE, ids=REFUSE_IDS)
def test_tokens_we_must_refuse_throw_token_error(verdicts, tok):
    got = verdicts[tok]
    assert not got["ok"], f"verifyToken should refuse {tok!r}, but returned {got.get('value')!r}"
    assert got["isTokenError"], f"verifyToken({tok!r}) should throw a TokenError, got {got.get('name')}: {got.get('message')}"


@pytest.fixture(scope="module")
def verdicts(js_batch):
    """verifyToken on every token of VALID, MALFORMED and REFUSE, in one node run."""
    tokens = [token(p, h) for p, h in VALID] + MALFORMED + REFUSE
    return dict(zip(tokens, js_batch("jwt.js", verify_js(tokens))))


def test_token_error_is_an_exported_error_class(js):
    got = js("jwt.js", """
        const TokenError = pick('TokenError');
        if (typeof TokenError !== "function") return "TokenError is not exported";
        const e = new TokenError("x");
        return [e instanceof Error, e instanceof TokenError, e.message];
    """)
    assert got == [True, True, "x"], f"TokenError should be a subclass of Error taking a message, got {got!r}"


def test_other_secret_is_used_when_given(js):
    tok = token(CLAIMS, secret="another secret")
    got = outcomes(js, [tok], secret="another secret")
    assert got[0]["ok"], f"verifyToken(token, 'another secret') should accept a token signed with it: {got[0]}"
