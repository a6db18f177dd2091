"use strict";

const crypto = require("node:crypto");

class TokenError extends Error {
  constructor(message) {
    super(message);
    this.name = "TokenError";
  }
}

function decodeJson(part, what) {
  let value;
  try {
    value = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    throw new TokenError(`the ${what} is not base64url JSON`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new TokenError(`the ${what} is not a JSON object`);
  }
  return value;
}

function verifyToken(token, secret, nowSeconds = Date.now() / 1000) {
  if (typeof token !== "string") throw new TokenError("the token is not a string");
  const parts = token.split(".");
  if (parts.length !== 3) throw new TokenError("a token has three parts");
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = decodeJson(headerPart, "header");
  const algorithms = { HS256: "sha256", HS384: "sha384", HS512: "sha512", none: null };
  if (!(header.alg in algorithms)) throw new TokenError(`unsupported alg ${JSON.stringify(header.alg)}`);
  const hash = algorithms[header.alg];
  if (hash) {
    const expected = crypto.createHmac(hash, secret).update(`${headerPart}.${payloadPart}`).digest();
    const given = Buffer.from(signaturePart, "base64url");
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      throw new TokenError("bad signature");
    }
  }
  const payload = decodeJson(payloadPart, "payload");
  if (typeof payload.exp !== "number" || !Number.isFinite(payload.exp)) throw new TokenError("no exp claim");
  if (!(nowSeconds < payload.exp)) throw new TokenError("the token has expired");
  if (payload.nbf !== undefined && !(nowSeconds >= payload.nbf)) throw new TokenError("the token is not valid yet");
  return payload;
}

module.exports = { verifyToken, TokenError };
