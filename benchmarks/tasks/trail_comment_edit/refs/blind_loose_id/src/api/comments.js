// Comments on an issue.

import { json, badRequest, forbidden, notFoundError, readJson } from "../http.js";
import { requireUser, canDeleteComment } from "../auth.js";
import { ValidationError, validateComment } from "../models.js";
import { findIssue } from "./issues.js";

export function commentJson(comment, store) {
  return {
    id: comment.id,
    issue: comment.issueId,
    author: store.getUser(comment.authorId)?.login ?? null,
    body: comment.body,
    createdAt: comment.createdAt,
    editedAt: comment.editedAt ?? null,
  };
}

/** GET /api/issues/:id/comments, oldest first */
export function listComments({ store, params }) {
  const issue = findIssue(store, params.id);
  return json(200, store.listComments(issue.id).map((c) => commentJson(c, store)));
}

/** POST /api/issues/:id/comments */
export function addComment({ store, params, request, user }) {
  requireUser(user);
  const issue = findIssue(store, params.id);
  let fields;
  try {
    fields = validateComment(readJson(request));
  } catch (error) {
    if (error instanceof ValidationError) throw badRequest(error.message);
    throw error;
  }
  const comment = store.addComment(issue.id, { authorId: user.id, body: fields.body });
  return json(201, commentJson(comment, store));
}

/** DELETE /api/comments/:id */
export function deleteComment({ store, params, user }) {
  requireUser(user);
  if (!/^[1-9]\d{0,9}$/.test(params.id)) throw notFoundError("no such comment");
  const comment = store.getComment(Number(params.id));
  if (!comment) throw notFoundError("no such comment");
  const issue = store.getIssue(comment.issueId);
  if (!canDeleteComment(store, user, comment, issue)) throw forbidden("only the author or a maintainer can delete a comment");
  store.deleteComment(comment.id);
  store.audit(issue.projectKey, user.id, "comment.deleted", { ref: issue.ref, comment: comment.id });
  return { status: 204, headers: {}, body: "" };
}

/** PATCH /api/comments/:id with { body }: only the author may edit a comment. */
export function editComment({ store, params, request, user }) {
  requireUser(user);
  const comment = store.getComment(Number(params.id));
  if (!comment) throw notFoundError("no such comment");
  // Maintainers may delete a comment, but nobody but its author may change what it says.
  if (comment.authorId !== user.id) throw forbidden("only the author can edit a comment");
  const input = readJson(request);
  const unknown = Object.keys(input).filter((key) => key !== "body");
  if (unknown.length) throw badRequest(`unknown field(s): ${unknown.join(", ")}`);
  let fields;
  try {
    fields = validateComment(input);
  } catch (error) {
    if (error instanceof ValidationError) throw badRequest(error.message);
    throw error;
  }
  const updated = store.editComment(comment.id, { body: fields.body });
  return json(200, commentJson(updated, store));
}
