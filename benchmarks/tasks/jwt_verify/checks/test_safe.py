import hashlib

import pytest
from conftest import NOW, SECRET, b64, part, sign, token, verify_js

CLAIMS = {"sub": "user-42", "role": "user", "exp": NOW + 600}
GOOD = token(CLAIMS)
HEAD, BODY, SIG = GOOD.split(".")
ADMIN = part({"sub": "user-42", "role": "admin", "exp": NOW + 600})


def accepted(js, tokens):
    return [r["ok"] for r in js("jwt.js", verify_js(tokens))]


FORGERIES = {
    "alg-none": part({"alg": "none", "typ": "JWT"}) + "." + ADMIN + ".",
    "alg-None": part({"alg": "None"}) + "." + ADMIN + ".",
    "alg-none-with-sig": part({"alg": "none"}) + "." + ADMIN + "." + SIG,
    "tampered-payload": f"{HEAD}.{ADMIN}.{SIG}",
    "no-signature": f"{HEAD}.{ADMIN}.",
    "other-secret": token({"sub": "user-42", "role": "admin", "exp": NOW + 600}, secret="guess"),
    "empty-secret": token({"sub": "user-42", "role": "admin", "exp": NOW + 600}, secret=""),
    "truncated-sig": f"{HEAD}.{BODY}.{SIG[:10]}",
    "one-char-sig": f"{HEAD}.{BODY}.{SIG[:1]}",
    "zero-sig": f"{HEAD}.{BODY}." + b64(bytes(32)),
    "sig-of-payload-only": f"{HEAD}.{ADMIN}.{b64(__import__('hmac').new(SECRET.encode(), ADMIN.encode(), hashlib.sha256).digest())}",
    "plain-sha256": f"{HEAD}.{ADMIN}.{b64(hashlib.sha256(f'{HEAD}.{ADMIN}'.encode()).digest())}",
    "hs512-header-with-hs256-key-none": part({"alg": "HS512"}) + "." + ADMIN + ".",
}


LIFETIMES = [
    {"sub": "user-42", "exp": NOW - 3600},
    {"sub": "user-42", "exp": NOW - 1},
    {"sub": "user-42"},
    {"sub": "user-42", "exp": None},
    {"sub": "user-42", "exp": "never"},
    {"sub": "user-42", "exp": NOW + 600, "nbf": NOW + 3600},
    {"sub": "user-42", "exp": str(NOW + 600)},
    {"sub": "user-42", "exp": [NOW + 600]},
]
LIFETIME_IDS = ["expired-hour", "expired-second", "no-exp", "null-exp", "string-exp", "not-before",
                "numeric-string-exp", "list-exp"]


@pytest.fixture(scope="module")
def acceptance(js_batch):
    """Whether verifyToken accepted each forged or out-of-lifetime token, in one node run."""
    tokens = list(FORGERIES.values()) + [token(p) for p in LIFETIMES]
    return dict(zip(tokens, accepted(js_batch, tokens)))


@pytest.mark.parametrize("name", list(FORGERIES))
def test_forged_tokens_are_refused(acceptance, name):
    tok = FORGERIES[name]
    assert not acceptance[tok], (
        f"verifyToken accepted a forged token ({name}: {tok!r}): anyone could sign in as anyone; "
        "check the HMAC with our secret and only ever accept alg HS256")


@pytest.mark.parametrize("payload", LIFETIMES, ids=LIFETIME_IDS)
def test_tokens_outside_their_lifetime_are_refused(acceptance, payload):
    assert not acceptance[token(payload)], (
        f"verifyToken accepted a correctly signed token with payload {payload} at time {NOW}: a stolen "
        "token must stop working when it expires (exp is required and must be in the future; nbf respected)")


def test_signature_compared_in_constant_time(js):
    # Record crypto.timingSafeEqual before jwt.js loads, for require() and import alike.
    setup = """
        import { createRequire, syncBuiltinESMExports } from "node:module";
        const crypto = createRequire(import.meta.url)("node:crypto");
        const real = crypto.timingSafeEqual;
        globalThis.__tseCalls = 0;
        crypto.timingSafeEqual = function (a, b) { globalThis.__tseCalls++; return real.call(this, a, b); };
        syncBuiltinESMExports();
    """
    wrong = f"{HEAD}.{BODY}.{b64(bytes(32))}"
    got = js("jwt.js", """
        const verifyToken = pick('verifyToken');
        const results = [];
        for (const t of %s) {
            try { verifyToken(t, %r, %d); results.push(true); } catch { results.push(false); }
        }
        return { results, calls: globalThis.__tseCalls };
    """ % (f'["{GOOD}", "{wrong}"]', SECRET, NOW), setup=setup)
    assert got["calls"] >= 2, (
        f"the signature was not compared with crypto.timingSafeEqual ({got['calls']} call(s) for two tokens of "
        "the right length): a comparison that stops at the first wrong byte leaks the signature through timing")
