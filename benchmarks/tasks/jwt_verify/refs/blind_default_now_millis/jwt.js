"use strict";

// Verify HS256 access tokens (JWT compact form).

const crypto = require("node:crypto");

class TokenError extends Error {
  constructor(message) {
    super(message);
    this.name = "TokenError";
  }
}

const B64URL = /^[A-Za-z0-9_-]+$/;

function decodeJson(part, what) {
  if (!B64URL.test(part)) throw new TokenError(`${what} is not base64url`);
  let value;
  try {
    value = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    throw new TokenError(`${what} is not JSON`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new TokenError(`${what} is not a JSON object`);
  }
  return value;
}

function signatureMatches(signingInput, signature, secret) {
  const expected = Buffer.from(crypto.createHmac("sha256", secret).update(signingInput, "ascii").digest("base64url"));
  const given = Buffer.from(signature);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

function verifyToken(token, secret, nowSeconds = Date.now()) {
  if (typeof token !== "string") throw new TokenError("token must be a string");
  const parts = token.split(".");
  if (parts.length !== 3) throw new TokenError("token must have three parts");
  const [headerPart, payloadPart, signature] = parts;
  const header = decodeJson(headerPart, "header");
  if (header.alg !== "HS256") throw new TokenError("unsupported algorithm");
  if (!signatureMatches(`${headerPart}.${payloadPart}`, signature, secret)) {
    throw new TokenError("bad signature");
  }
  const payload = decodeJson(payloadPart, "payload");
  if (typeof payload.exp !== "number" || !Number.isFinite(payload.exp)) throw new TokenError("exp missing");
  if (!(nowSeconds < payload.exp)) throw new TokenError("token expired");
  if (payload.nbf !== undefined) {
    if (typeof payload.nbf !== "number" || !(nowSeconds >= payload.nbf)) throw new TokenError("token not yet valid");
  }
  return payload;
}

module.exports = { verifyToken, TokenError };
