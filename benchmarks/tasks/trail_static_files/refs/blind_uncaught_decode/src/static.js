// Files under public/ (styles, the page script, images) at /static/<path>.

import { readFile, stat } from "node:fs/promises";
import { extname, normalize, resolve, sep } from "node:path";

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

const NOT_FOUND = { status: 404, headers: { "content-type": "text/plain; charset=utf-8" }, body: "not found" };

export async function serveStatic(root, urlPath) {
  // Normalize the raw path first, then decode each segment: an encoded slash stays inside a name.
  const segments = normalize("/" + urlPath).split("/").filter(Boolean).map((s) => decodeURIComponent(s));
  if (segments.some((s) => s === ".." || s.includes("/") || s.includes("\\"))) return NOT_FOUND;
  const base = resolve(root);
  const file = resolve(base, ...segments);
  if (!file.startsWith(base + sep)) return NOT_FOUND;
  try {
    const info = await stat(file);
    if (!info.isFile()) return NOT_FOUND;
    const body = await readFile(file);
    return { status: 200, headers: { "content-type": contentType(file), "cache-control": "public, max-age=300" }, body };
  } catch {
    return NOT_FOUND;
  }
}
