"use strict";

const crypto = require("node:crypto");

class TokenError extends Error {
  constructor(message) {
    super(message);
    this.name = "TokenError";
  }
}

// Verification failures are reported as plain errors, like the rest of our API code.
const fail = (message) => new Error(message);

function decodeJson(part, what) {
  let value;
  try {
    value = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    throw fail(`the ${what} is not base64url JSON`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw fail(`the ${what} is not a JSON object`);
  }
  return value;
}

function verifyToken(token, secret, nowSeconds = Date.now() / 1000) {
  if (typeof token !== "string") throw fail("the token is not a string");
  const parts = token.split(".");
  if (parts.length !== 3) throw fail("a token has three parts");
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = decodeJson(headerPart, "header");
  // The algorithm is ours to choose, never the token's: only HS256 is accepted.
  if (header.alg !== "HS256") throw fail(`unsupported alg ${JSON.stringify(header.alg)}`);
  const expected = crypto.createHmac("sha256", secret).update(`${headerPart}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, "base64url");
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    throw fail("bad signature");
  }
  const payload = decodeJson(payloadPart, "payload");
  if (typeof payload.exp !== "number" || !Number.isFinite(payload.exp)) throw fail("no exp claim");
  if (!(nowSeconds < payload.exp)) throw fail("the token has expired");
  if (payload.nbf !== undefined && !(nowSeconds >= payload.nbf)) throw fail("the token is not valid yet");
  return payload;
}

module.exports = { verifyToken, TokenError };
