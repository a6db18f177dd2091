// The issues API: list, read, open, close and reopen.

import { json, badRequest, forbidden, notFoundError, readJson } from "../http.js";
import { requireUser, requireStatusChange, isMaintainer } from "../auth.js";
import { ValidationError, validateNewIssue } from "../models.js";
import { parseQuery, matcher } from "../search.js";
import { findProject } from "./projects.js";

/** What the API shows of an issue: the stored fields, with logins instead of user ids. */
export function issueJson(issue, store) {
  const login = (id) => (id === null ? null : store.getUser(id)?.login ?? null);
  return {
    id: issue.id,
    ref: issue.ref,
    project: issue.projectKey,
    title: issue.title,
    body: issue.body,
    status: issue.status,
    priority: issue.priority,
    labels: issue.labels,
    author: login(issue.authorId),
    assignee: login(issue.assigneeId),
    comments: store.countComments(issue.id),
    createdAt: issue.createdAt,
    updatedAt: issue.updatedAt,
    closedAt: issue.closedAt,
  };
}

export function parseId(text) {
  if (!/^[1-9]\d{0,9}$/.test(text)) throw notFoundError("no such issue");
  return Number(text);
}

export function findIssue(store, idText) {
  const issue = store.getIssue(parseId(idText));
  if (!issue) throw notFoundError("no such issue");
  return issue;
}

const STATES = { open: (i) => i.status === "open", closed: (i) => i.status === "closed", all: () => true };

export const PER_PAGE_DEFAULT = 30;
export const PER_PAGE_MAX = 100;

/** A `page` or `per_page` value: digits only, at least 1; absent is the default. */
function pageNumber(query, name, fallback) {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw) || !/[1-9]/.test(raw)) throw badRequest(`${name} must be a whole number, at least 1`);
  return Number(raw);
}

/** The request's path and query with `page` set, every other parameter kept. */
function pageUrl(requestUrl, page) {
  const q = requestUrl.indexOf("?");
  const path = q === -1 ? requestUrl : requestUrl.slice(0, q);
  const search = new URLSearchParams(q === -1 ? "" : requestUrl.slice(q + 1));
  search.set("page", String(page));
  return `${path}?${search}`;
}

/** The Link header (RFC 8288) for a page, or null when there is neither a next nor a prev page. */
function linkHeader(requestUrl, page, perPage, total) {
  const links = [];
  if (page * perPage < total) links.push(`<${pageUrl(requestUrl, page + 1)}>; rel="next"`);
  if (page > 1) links.push(`<${pageUrl(requestUrl, page - 1)}>; rel="prev"`);
  return links.length ? links.join(", ") : null;
}

/**
 * GET /api/projects/:key/issues?state=open|closed|all&label=NAME&q=SEARCH&page=N&per_page=N
 * Newest first. `q` takes the search syntax of the search box.
 */
export function listIssues({ store, params, query, request }) {
  const project = findProject(store, params.key);
  const state = query.state ?? "open";
  if (!(state in STATES)) throw badRequest("state must be open, closed or all");
  const search = query.q ? parseQuery(query.q) : null;
  if (search?.errors.length) throw badRequest(search.errors.join("; "));
  const userId = (login) => store.findUserByLogin(login)?.id;
  const searchMatches = search ? matcher(search, userId) : () => true;
  const page = pageNumber(query, "page", 1);
  const perPage = Math.min(pageNumber(query, "per_page", PER_PAGE_DEFAULT), PER_PAGE_MAX);
  const issues = store.listIssues(project.key, (issue) =>
    STATES[state](issue) && (query.label === undefined || issue.labels.includes(query.label)) && searchMatches(issue));
  const start = (page - 1) * perPage;
  const headers = { "x-total-count": String(store.listIssues(project.key).length) };
  const link = linkHeader(request.url ?? "", page, perPage, issues.length);
  if (link) headers.link = link;
  return json(200, issues.slice(start, start + perPage).map((issue) => issueJson(issue, store)), headers);
}

export function getIssue({ store, params }) {
  return json(200, issueJson(findIssue(store, params.id), store));
}

/** POST /api/projects/:key/issues */
export function createIssue({ store, params, request, user }) {
  requireUser(user);
  const project = findProject(store, params.key);
  let fields;
  try {
    fields = validateNewIssue(readJson(request), project);
  } catch (error) {
    if (error instanceof ValidationError) throw badRequest(error.message);
    throw error;
  }
  const issue = store.addIssue(project.key, { ...fields, authorId: user.id });
  return json(201, issueJson(issue, store), { location: `/api/issues/${issue.id}` });
}

function setStatus(status) {
  return ({ store, params, user }) => {
    const issue = findIssue(store, params.id);
    requireStatusChange(store, user, issue);
    if (issue.status === status) return json(200, issueJson(issue, store));
    const changed = store.setStatus(issue.id, status);
    store.audit(issue.projectKey, user.id, status === "closed" ? "issue.closed" : "issue.reopened", { ref: issue.ref });
    return json(200, issueJson(changed, store));
  };
}

/** GET /api/projects/:key/audit: the project's audit trail, for its maintainers */
export function auditTrail({ store, params, query, user }) {
  requireUser(user);
  const project = findProject(store, params.key);
  if (!isMaintainer(store, user, project.key)) throw forbidden("only maintainers can read the audit trail");
  const limit = query.limit === undefined ? 100 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw badRequest("limit must be 1 to 1000");
  const login = (id) => store.getUser(id)?.login ?? null;
  return json(200, store.auditTrail(project.key, limit).map((a) => ({ ...a, userId: undefined, user: login(a.userId) })));
}

/** POST /api/issues/:id/close */
export const closeIssue = setStatus("closed");

/** POST /api/issues/:id/reopen */
export const reopenIssue = setStatus("open");
