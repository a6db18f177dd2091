// The pages people read: the project list, a project's issues, one issue, the search page.

import { html as page, notFoundError } from "./http.js";
import { escapeHtml, layout, issueRow, issueList, labelBadge, statusBadge } from "./html.js";
import { renderMarkdown } from "./markdown.js";
import { relativeTime } from "./util/dates.js";
import { parseQuery, matcher } from "./search.js";
import { findIssue } from "./api/issues.js";

function rows(store, project, issues, now) {
  return issues.map((issue) => issueRow(issue, {
    project,
    author: store.getUser(issue.authorId),
    comments: store.countComments(issue.id),
    now,
  }));
}

/** GET / */
export function homePage({ store, user, now }) {
  const items = store.listProjects().map((p) =>
    `<li><a href="/projects/${escapeHtml(p.key)}">${escapeHtml(p.key)}</a> ${escapeHtml(p.name)}</li>`);
  const body = `<h1>Projects</h1>\n${items.length ? `<ul>\n${items.join("\n")}\n</ul>` : "<p>No projects yet.</p>"}`;
  return page(200, layout("Projects", body, { user, now }));
}

/** GET /projects/:key?state=open|closed|all */
export function projectPage({ store, params, query, user, now }) {
  const project = store.getProject(params.key);
  if (!project) throw notFoundError(`no project ${params.key}`);
  const state = ["open", "closed", "all"].includes(query.state) ? query.state : "open";
  const issues = store.listIssues(project.key, (i) => state === "all" || i.status === state);
  const tabs = ["open", "closed", "all"].map((s) =>
    s === state ? `<strong>${s}</strong>` : `<a href="/projects/${escapeHtml(project.key)}?state=${s}">${s}</a>`).join(" | ");
  const body = `<h1>${escapeHtml(project.name)}</h1>
<p class="description">${escapeHtml(project.description)}</p>
<p class="tabs">${tabs}</p>
${issueList(rows(store, project, issues, now))}`;
  return page(200, layout(project.name, body, { user, now }));
}

/** GET /issues/:id */
export function issuePage({ store, params, user, now }) {
  const issue = findIssue(store, params.id);
  const project = store.getProject(issue.projectKey);
  const author = store.getUser(issue.authorId);
  const assignee = issue.assigneeId === null ? null : store.getUser(issue.assigneeId);
  const comments = store.listComments(issue.id).map((c) => {
    const by = store.getUser(c.authorId);
    return `<article class="comment" id="comment-${c.id}">
<header>@${escapeHtml(by?.login ?? "deleted")} commented ${escapeHtml(relativeTime(c.createdAt, { now }))}</header>
${renderMarkdown(c.body)}
</article>`;
  });
  const body = `<h1>${escapeHtml(issue.title)} <small>${escapeHtml(issue.ref)}</small></h1>
<p class="meta">${statusBadge(issue.status)} opened by @${escapeHtml(author?.login ?? "deleted")}
${escapeHtml(relativeTime(issue.createdAt, { now }))} · priority ${escapeHtml(issue.priority)}
${assignee ? `· assigned to @${escapeHtml(assignee.login)}` : ""} ${issue.labels.map((l) => labelBadge(l, project)).join(" ")}</p>
<section class="body">
${renderMarkdown(issue.body)}
</section>
<h2>${comments.length} comment${comments.length === 1 ? "" : "s"}</h2>
${comments.join("\n")}`;
  return page(200, layout(`${issue.ref}: ${issue.title}`, body, { user, now }));
}

/** GET /projects/:key/search?q=... */
export function searchPage({ store, params, query, user, now }) {
  const project = store.getProject(params.key);
  if (!project) throw notFoundError(`no project ${params.key}`);
  const q = query.q ?? "";
  const parsed = parseQuery(q);
  const userId = (login) => store.findUserByLogin(login)?.id;
  const issues = parsed.errors.length ? [] : store.listIssues(project.key, matcher(parsed, userId));
  const problems = parsed.errors.map((e) => `<li>${escapeHtml(e)}</li>`).join("\n");
  const body = `<h1>Search ${escapeHtml(project.name)}</h1>
<form action="/projects/${escapeHtml(project.key)}/search"><input name="q" value="${escapeHtml(q)}"></form>
${problems ? `<ul class="errors">\n${problems}\n</ul>` : ""}
<p>${issues.length} result${issues.length === 1 ? "" : "s"}</p>
${issueList(rows(store, project, issues, now))}`;
  return page(200, layout(`Search ${project.name}`, body, { user, now }));
}
