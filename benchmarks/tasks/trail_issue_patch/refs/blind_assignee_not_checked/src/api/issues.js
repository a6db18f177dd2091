// The issues API: list, read, open, edit, close and reopen.

import { json, badRequest, forbidden, notFoundError, readJson } from "../http.js";
import { requireUser, requireStatusChange, isMaintainer } from "../auth.js";
import {
  ValidationError, validateNewIssue, validateTitle, validateBody, validatePriority, validateLabels, validateStatus,
  validateAssigneeId,
} from "../models.js";
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

/**
 * GET /api/projects/:key/issues?state=open|closed|all&label=NAME&q=SEARCH
 * Newest first. `q` takes the search syntax of the search box.
 */
export function listIssues({ store, params, query }) {
  const project = findProject(store, params.key);
  const state = query.state ?? "open";
  if (!(state in STATES)) throw badRequest("state must be open, closed or all");
  const search = query.q ? parseQuery(query.q) : null;
  if (search?.errors.length) throw badRequest(search.errors.join("; "));
  const userId = (login) => store.findUserByLogin(login)?.id;
  const searchMatches = search ? matcher(search, userId) : () => true;
  const issues = store.listIssues(project.key, (issue) =>
    STATES[state](issue) && (query.label === undefined || issue.labels.includes(query.label)) && searchMatches(issue));
  return json(200, issues.map((issue) => issueJson(issue, store)));
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

// PATCH /api/issues/:id: who may change which field.
const REPORTER_FIELDS = ["title", "body"];
const MAINTAINER_FIELDS = ["title", "body", "status", "priority", "labels", "assigneeId"];

/** The changes a PATCH body asks for, validated as when an issue is opened. */
function validateChanges(input, issue, store, now) {
  const project = findProject(store, issue.projectKey);
  const changes = {};
  if ("title" in input) changes.title = validateTitle(input.title);
  if ("body" in input) changes.body = validateBody(input.body);
  if ("priority" in input) changes.priority = validatePriority(input.priority ?? null);
  if ("labels" in input) changes.labels = validateLabels(input.labels ?? null, project);
  if ("status" in input) {
    changes.status = validateStatus(input.status);
    if (changes.status !== issue.status) changes.closedAt = changes.status === "closed" ? now : null;
  }
  if ("assigneeId" in input) {
    const assigneeId = validateAssigneeId(input.assigneeId);
    changes.assigneeId = assigneeId;
  }
  return changes;
}

/** PATCH /api/issues/:id: the reporter may edit title and body, maintainers every field. */
export function updateIssue({ store, params, request, user }) {
  requireUser(user);
  const issue = findIssue(store, params.id);
  const input = readJson(request);
  const fields = Object.keys(input);
  const unknown = fields.filter((f) => !MAINTAINER_FIELDS.includes(f));
  if (unknown.length) throw badRequest(`these fields cannot be changed: ${unknown.join(", ")}`);
  const maintainer = isMaintainer(store, user, issue.projectKey);
  if (!maintainer && issue.authorId !== user.id) throw forbidden("only the reporter or a maintainer can edit this issue");
  const allowed = maintainer ? MAINTAINER_FIELDS : REPORTER_FIELDS;
  const denied = fields.filter((f) => !allowed.includes(f));
  if (denied.length) throw forbidden(`you may not change: ${denied.join(", ")}`);
  let changes;
  try {
    changes = validateChanges(input, issue, store, store.now());
  } catch (error) {
    if (error instanceof ValidationError) throw badRequest(error.message);
    throw error;
  }
  if (fields.length === 0) return json(200, issueJson(issue, store));
  const updated = store.updateIssue(issue.id, changes);
  if ("closedAt" in changes) {
    store.audit(issue.projectKey, user.id, changes.status === "closed" ? "issue.closed" : "issue.reopened", { ref: issue.ref });
  }
  return json(200, issueJson(updated, store));
}
