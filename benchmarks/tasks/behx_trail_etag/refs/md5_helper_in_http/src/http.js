// Responses, errors and request parsing shared by the API and the pages.

import crypto from "node:crypto";

export class HttpError extends Error {
  /**
   * @param {number} status
   * @param {string} message shown to the client
   */
  constructor(status, message) {
    super(message);
    this.name = "HttpError";
    this.status = status;
  }
}

export const badRequest = (message) => new HttpError(400, message);
export const unauthorized = (message = "authentication required") => new HttpError(401, message);
export const forbidden = (message = "not allowed") => new HttpError(403, message);
export const notFoundError = (message = "not found") => new HttpError(404, message);

/** A JSON response. */
export function json(status, value, headers = {}) {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
    body: JSON.stringify(value),
  };
}

/** An HTML response. */
export function html(status, text, headers = {}) {
  return { status, headers: { "content-type": "text/html; charset=utf-8", ...headers }, body: text };
}

export function text(status, body, contentType = "text/plain; charset=utf-8", headers = {}) {
  return { status, headers: { "content-type": contentType, ...headers }, body };
}

export function redirect(location, status = 303) {
  return { status, headers: { location }, body: "" };
}

export function notFound() {
  return json(404, { error: "not found" });
}

/** The response for an HttpError; anything else is a 500 that does not leak the message. */
export function errorResponse(error) {
  if (error instanceof HttpError) return json(error.status, { error: error.message });
  return json(500, { error: "internal error" });
}

/**
 * Split a request URL into its path and query parameters. The path is percent-decoded
 * segment by segment by the router, not here.
 * @param {string} url e.g. "/api/projects/WEB/issues?state=all&label=bug"
 * @returns {{ path: string, query: Record<string, string> }}
 */
export function parseUrl(url) {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const query = {};
  if (q !== -1) {
    for (const [key, value] of new URLSearchParams(url.slice(q + 1))) {
      if (!(key in query)) query[key] = value; // the first value wins
    }
  }
  return { path: path || "/", query };
}

/** Cookies from a Cookie header, as a plain object. */
export function parseCookies(header) {
  const cookies = {};
  if (!header) return cookies;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq === -1) continue;
    const name = pair.slice(0, eq).trim();
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

/**
 * The request body as JSON. An empty body is `{}`; anything that is not a JSON object is a
 * 400, so handlers can read fields without checking the type first.
 */
export function readJson(request) {
  const body = request.body ?? "";
  if (body.trim() === "") return {};
  let value;
  try {
    value = JSON.parse(body);
  } catch {
    throw badRequest("the body is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("the body must be a JSON object");
  }
  return value;
}

/** Header lookup that ignores case, as HTTP does. */
export function header(request, name) {
  const headers = request.headers ?? {};
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === wanted) return headers[key];
  }
  return undefined;
}

/**
 * Conditional GET: the response with its ETag (an MD5 of the body, base64url, quoted), or a 304
 * when one of the client's If-None-Match tags is that one (W/ compared weakly) or it is "*".
 */
export function conditional(request, response) {
  const etag = '"' + crypto.createHash("md5").update(String(response.body)).digest("base64url") + '"';
  const wanted = header(request, "if-none-match");
  if (wanted !== undefined) {
    const tags = wanted.split(",").map((t) => t.trim()).filter(Boolean);
    if (tags.includes("*") || tags.some((t) => (t.startsWith("W/") ? t.slice(2) : t) === etag)) {
      return { status: 304, headers: { etag }, body: "" };
    }
  }
  return { ...response, headers: { ...response.headers, etag } };
}
