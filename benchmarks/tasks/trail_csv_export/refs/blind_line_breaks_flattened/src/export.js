// CSV export of a project's issues, for the weekly triage spreadsheet.

export const COLUMNS = ["ref", "title", "status", "priority", "labels", "author", "assignee", "created", "closed"];

/**
 * One CSV field as RFC 4180 writes it: in double quotes, with inner quotes doubled, when it
 * holds a comma, a double quote, a carriage return or a line feed; as it is otherwise.
 */
export function csvField(value) {
  // a line break would start a new row in most viewers: keep each issue on one line
  const text = value === null || value === undefined ? "" : String(value).replace(/\r\n|\r|\n/g, " ");
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

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
      issue.title,
      issue.status,
      issue.priority,
      issue.labels.join(";"),
      users.login(issue.authorId),
      users.login(issue.assigneeId),
      issue.createdAt.slice(0, 10),
      issue.closedAt ? issue.closedAt.slice(0, 10) : "",
    ]);
  }
  return rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/** A file name for the download: "WEB-issues-2024-03-05.csv". */
export function exportFileName(projectKey, now = new Date()) {
  return `${projectKey}-issues-${now.toISOString().slice(0, 10)}.csv`;
}
