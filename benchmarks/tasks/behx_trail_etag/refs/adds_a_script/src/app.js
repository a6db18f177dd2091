// The application: routes every request to a handler and turns errors into responses.

import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Router } from "./router.js";
import { parseUrl, errorResponse, text, html, header, HttpError } from "./http.js";
import { authenticate } from "./auth.js";
import { listProjects, getProject, findProject } from "./api/projects.js";
import { listIssues, getIssue, createIssue, closeIssue, reopenIssue, auditTrail } from "./api/issues.js";
import { listLabels, addLabel, removeLabel } from "./api/labels.js";
import { listComments, addComment, deleteComment } from "./api/comments.js";
import { currentUser, getUser } from "./api/users.js";
import { homePage, projectPage, issuePage, searchPage } from "./views.js";
import { issuesToCsv, exportFileName } from "./export.js";
import { serveStatic } from "./static.js";
import { errorPage } from "./html.js";

export const DEFAULT_PUBLIC_DIR = fileURLToPath(new URL("../public/", import.meta.url));

function exportCsv({ store, params, now }) {
  const project = findProject(store, params.key);
  const users = { login: (id) => (id === null ? "" : store.getUser(id)?.login ?? "") };
  const csv = issuesToCsv(store.listIssues(project.key), users);
  return text(200, csv, "text/csv; charset=utf-8", {
    "content-disposition": `attachment; filename="${exportFileName(project.key, now)}"`,
  });
}

/** A strong entity tag of a body: its SHA-256, quoted. */
export function entityTag(body) {
  return `"${createHash("sha256").update(body ?? "").digest("hex")}"`;
}

/** Whether an If-None-Match value matches the tag (weak comparison, as RFC 9110 asks). */
export function noneMatch(value, tag) {
  if (value === undefined) return false;
  if (value.trim() === "*") return true;
  return value.split(",").some((item) => item.trim().replace(/^W\//, "") === tag);
}

/** A 200 answer to a GET of the API gets its ETag, or becomes a 304 when the client has it. */
function withEntityTag(request, response) {
  const tag = entityTag(response.body);
  if (noneMatch(header(request, "if-none-match"), tag)) return { status: 304, headers: { etag: tag }, body: "" };
  return { ...response, headers: { ...response.headers, etag: tag } };
}

export function buildRouter(publicDir) {
  return new Router()
    .get("/", homePage)
    .get("/projects/:key", projectPage)
    .get("/projects/:key/search", searchPage)
    .get("/issues/:id", issuePage)
    .get("/static/*", ({ params }) => serveStatic(publicDir, params.rest))
    .get("/api/projects", listProjects)
    .get("/api/projects/:key", getProject)
    .get("/api/projects/:key/issues", listIssues)
    .post("/api/projects/:key/issues", createIssue)
    .get("/api/projects/:key/export.csv", exportCsv)
    .get("/api/projects/:key/audit", auditTrail)
    .get("/api/projects/:key/labels", listLabels)
    .post("/api/projects/:key/labels", addLabel)
    .delete("/api/projects/:key/labels/:name", removeLabel)
    .get("/api/issues/:id", getIssue)
    .post("/api/issues/:id/close", closeIssue)
    .post("/api/issues/:id/reopen", reopenIssue)
    .get("/api/issues/:id/comments", listComments)
    .post("/api/issues/:id/comments", addComment)
    .delete("/api/comments/:id", deleteComment)
    .get("/api/user", currentUser)
    .get("/api/users/:login", getUser);
}

/**
 * @param {{ store: import("./store.js").Store, publicDir?: string, log?: (line: string) => void }} options
 */
export function createApp({ store, publicDir = DEFAULT_PUBLIC_DIR, log = () => {} }) {
  const router = buildRouter(publicDir);

  /**
   * @param {{ method: string, url: string, headers?: object, body?: string }} request
   * @returns {Promise<{ status: number, headers: object, body: string | Buffer }>}
   */
  async function handle(request) {
    const method = (request.method ?? "GET").toUpperCase();
    const { path, query } = parseUrl(request.url ?? "/");
    const isApi = path.startsWith("/api/");
    let response;
    try {
      const route = router.match(method, path);
      if (!route) throw new HttpError(404, "not found");
      const user = authenticate(request, store);
      const ctx = { store, request, params: route.params, query, user, now: store.clock() };
      response = await route.handler(ctx);
    } catch (error) {
      if (!(error instanceof HttpError)) log(`error on ${method} ${path}: ${error?.stack ?? error}`);
      response = isApi || !(error instanceof HttpError)
        ? errorResponse(error)
        : html(error.status, errorPage(error.status, error.message));
    }
    if (method === "GET" && isApi && response.status === 200) response = withEntityTag(request, response);
    if (method === "HEAD") response = { ...response, body: "" };
    log(`${method} ${path} ${response.status}`);
    return response;
  }

  return { handle, router };
}
