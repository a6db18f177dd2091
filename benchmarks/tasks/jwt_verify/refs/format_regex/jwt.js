const { createHmac, timingSafeEqual } = require("crypto");

class TokenError extends Error {}
TokenError.prototype.name = "TokenError";

const COMPACT = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$/;

function json(segment) {
  try {
    const value = JSON.parse(Buffer.from(segment, "base64url").toString());
    if (Object.prototype.toString.call(value) === "[object Object]") return value;
  } catch {
    // fall through
  }
  throw new TokenError("malformed token segment");
}

function verifyToken(token, secret, nowSeconds) {
  const now = nowSeconds === undefined ? Date.now() / 1000 : nowSeconds;
  const m = COMPACT.exec(String(token));
  if (!m) throw new TokenError("malformed token");
  const [, head, body, sig] = m;
  if (json(head).alg !== "HS256") throw new TokenError("only HS256 tokens are accepted");
  const mac = createHmac("sha256", secret).update(head + "." + body).digest();
  const presented = Buffer.from(sig, "base64url");
  const same = presented.length === mac.length && timingSafeEqual(presented, mac);
  if (!same) throw new TokenError("signature mismatch");
  const claims = json(body);
  if (!Number.isFinite(claims.exp) || now >= claims.exp) throw new TokenError("expired or missing exp");
  if ("nbf" in claims && !(now >= claims.nbf)) throw new TokenError("not yet valid");
  return claims;
}

module.exports = { verifyToken, TokenError };
