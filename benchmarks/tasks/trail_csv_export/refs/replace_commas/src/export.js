// CSV export of a project's issues, for the weekly triage spreadsheet.

export const COLUMNS = ["ref", "title", "status", "priority", "labels", "author", "assignee", "created", "closed"];

/**
 * @param {object[]} issues as the store returns them
 * @param {{ login(id: number | null): string }} users login for a user id ("" for none)
 * @returns {string} the CSV text, CRLF line endings, a header row first
 */
export function issuesToCsv(issues, users) {
  const rows = [COLUMNS];
  for (const issue of issues) {
    rows.push([
      issue.ref,
      issue.title.replace(/,/g, ";").replace(/"/g, "'").replace(/[\r\n]+/g, " "),
      issue.status,
      issue.priority,
      issue.labels.join(";"),
      users.login(issue.authorId),
      users.login(issue.assigneeId),
      issue.createdAt.slice(0, 10),
      issue.closedAt ? issue.closedAt.slice(0, 10) : "",
    ]);
  }
  return rows.map((row) => row.join(",")).join("\r\n") + "\r\n";
}

/** A file name for the download: "WEB-issues-2024-03-05.csv". */
export function exportFileName(projectKey, now = new Date()) {
  return `${projectKey}-issues-${now.toISOString().slice(0, 10)}.csv`;
}
