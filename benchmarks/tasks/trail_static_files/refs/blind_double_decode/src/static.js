// Files under public/ (styles, the page script, images) at /static/<path>.

import { readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";

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

const TEXT = { "content-type": "text/plain; charset=utf-8" };

export async function serveStatic(root, urlPath) {
  let relative;
  try {
    relative = decodeURIComponent(urlPath);
  } catch {
    return { status: 400, headers: TEXT, body: "malformed URL" };
  }
  if (relative.split(/[\\/]/).includes("..")) {
    return { status: 404, headers: TEXT, body: "not found" };
  }
  // Some clients encode twice (a%2520b): decode what is left.
  try {
    relative = decodeURIComponent(relative);
  } catch {
    // already plain
  }
  const file = join(root, relative);
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error("not a file");
    const body = await readFile(file);
    return { status: 200, headers: { "content-type": contentType(file), "cache-control": "public, max-age=300" }, body };
  } catch {
    return { status: 404, headers: TEXT, body: "not found" };
  }
}
