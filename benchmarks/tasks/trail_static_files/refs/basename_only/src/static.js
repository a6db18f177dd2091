// Files under public/ (styles, the page script, images) at /static/<path>.

import { readFile, stat } from "node:fs/promises";
import { extname, join, basename } from "node:path";

const TYPES = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".woff2": "font/woff2",
};

export function contentType(path) {
  return TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}

/**
 * The response for GET /static/<urlPath>: the file's bytes, or a 404.
 * @param {string} root the public/ folder
 * @param {string} urlPath the rest of the URL after /static/, still percent-encoded
 */
export async function serveStatic(root, urlPath) {
  let relative;
  try {
    relative = decodeURIComponent(urlPath);
  } catch {
    return { status: 400, headers: { "content-type": "text/plain; charset=utf-8" }, body: "malformed URL" };
  }
  const file = join(root, basename(relative));
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error("not a file");
    const body = await readFile(file);
    return {
      status: 200,
      headers: { "content-type": contentType(file), "cache-control": "public, max-age=300" },
      body,
    };
  } catch {
    return { status: 404, headers: { "content-type": "text/plain; charset=utf-8" }, body: "not found" };
  }
}
