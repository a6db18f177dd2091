// Page templates. Every string that comes from a user goes through escapeHtml here (or
// through renderMarkdown, which escapes first).

import { relativeTime } from "./util/dates.js";

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

/** The page frame: head, navigation bar, the content. */
export function layout(title, content, { user = null, now = new Date() } = {}) {
  const who = user
    ? `<span class="who">${escapeHtml(user.name)} (@${escapeHtml(user.login)})</span>`
    : `<span class="who">not signed in</span>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)} · issuetrail</title>
<link rel="stylesheet" href="/static/style.css">
<script src="/static/app.js" defer></script>
</head>
<body>
<nav><a href="/">issuetrail</a> ${who}</nav>
<main>
${content}
</main>
<footer>rendered ${escapeHtml(now.toISOString())}</footer>
</body>
</html>
`;
}

export function labelBadge(label, project) {
  const known = project?.labels?.find((l) => l.name === label);
  const color = known && /^#[0-9a-f]{6}$/i.test(known.color) ? known.color : "#888888";
  return `<span class="label" style="background:${color}">${escapeHtml(label)}</span>`;
}

export function statusBadge(status) {
  return `<span class="status status-${status === "closed" ? "closed" : "open"}">${escapeHtml(status)}</span>`;
}

/** One row of an issue list. */
export function issueRow(issue, { project, author, comments = 0, now = new Date() } = {}) {
  const labels = issue.labels.map((l) => labelBadge(l, project)).join(" ");
  const by = author ? `by @${escapeHtml(author.login)}` : "by a deleted user";
  return `<li class="issue priority-${escapeHtml(issue.priority)}">
  ${statusBadge(issue.status)}
  <a href="/issues/${issue.id}">${escapeHtml(issue.ref)}: ${escapeHtml(issue.title)}</a>
  ${labels}
  <small>${by}, ${escapeHtml(relativeTime(issue.createdAt, { now }))}${comments ? `, ${comments} comment${comments === 1 ? "" : "s"}` : ""}</small>
</li>`;
}

export function issueList(rows) {
  if (rows.length === 0) return `<p class="empty">No issues.</p>`;
  return `<ul class="issues">\n${rows.join("\n")}\n</ul>`;
}

export function errorPage(status, message) {
  return layout(`${status}`, `<h1>${status}</h1>\n<p>${escapeHtml(message)}</p>`);
}
