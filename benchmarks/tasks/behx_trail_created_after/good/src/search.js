// The search box: "is:open label:bug author:ann crash on save".
//
// Qualifiers: is:open / is:closed, label:NAME (repeatable, all must match), author:LOGIN,
// assignee:LOGIN, priority:LEVEL, created:>=2024-01-01 / created:<2024-02-01. Everything else
// is free text, matched case-insensitively against the title and the body. A word in double
// quotes is kept together ("crash on save").

import { parseDay } from "./util/dates.js";

const QUALIFIERS = new Set(["is", "label", "author", "assignee", "priority", "created"]);

/** Split a query into words, keeping "quoted phrases" whole. */
export function tokenize(query) {
  const words = [];
  const re = /"([^"]*)"|(\S+)/g;
  let m;
  while ((m = re.exec(query)) !== null) {
    if (m[1] !== undefined) {
      if (m[1].trim() !== "") words.push({ text: m[1], quoted: true });
    } else {
      words.push({ text: m[2], quoted: false });
    }
  }
  return words;
}

/**
 * @param {string} query
 * @returns {{ status: string | null, labels: string[], author: string | null, assignee: string | null,
 *            priority: string | null, created: { op: string, day: Date }[], text: string[], errors: string[] }}
 */
export function parseQuery(query) {
  const parsed = { status: null, labels: [], author: null, assignee: null, priority: null, created: [], text: [], errors: [] };
  for (const word of tokenize(String(query ?? ""))) {
    const colon = word.quoted ? -1 : word.text.indexOf(":");
    const name = colon > 0 ? word.text.slice(0, colon).toLowerCase() : "";
    if (!QUALIFIERS.has(name)) {
      parsed.text.push(word.text.toLowerCase());
      continue;
    }
    const value = word.text.slice(colon + 1);
    switch (name) {
      case "is":
        if (value === "open" || value === "closed") parsed.status = value;
        else parsed.errors.push(`is:${value} is not open or closed`);
        break;
      case "label":
        if (value) parsed.labels.push(value);
        break;
      case "author":
        parsed.author = value.replace(/^@/, "");
        break;
      case "assignee":
        parsed.assignee = value.replace(/^@/, "");
        break;
      case "priority":
        parsed.priority = value.toLowerCase();
        break;
      case "created": {
        const m = /^(>=|<=|>|<)?(.*)$/.exec(value);
        const day = parseDay(m[2]);
        if (day) parsed.created.push({ op: m[1] ?? "=", day });
        else parsed.errors.push(`created:${value} is not a date like 2024-01-31`);
        break;
      }
      default:
        break;
    }
  }
  return parsed;
}

function dayMatches(createdAt, { op, day }) {
  const t = new Date(createdAt).getTime();
  const start = day.getTime();
  const end = start + 24 * 3600 * 1000;
  switch (op) {
    case ">=": return t >= start;
    case ">": return t >= end;
    case "<=": return t < end;
    case "<": return t < start;
    default: return t >= start && t < end;
  }
}

/**
 * A predicate for store.listIssues. `users` maps a login to a user id.
 * @param {ReturnType<typeof parseQuery>} parsed
 * @param {(login: string) => number | undefined} userId
 */
export function matcher(parsed, userId) {
  const authorId = parsed.author === null ? null : userId(parsed.author) ?? -1;
  const assigneeId = parsed.assignee === null ? null : userId(parsed.assignee) ?? -1;
  return (issue) => {
    if (parsed.status && issue.status !== parsed.status) return false;
    if (!parsed.labels.every((l) => issue.labels.includes(l))) return false;
    if (authorId !== null && issue.authorId !== authorId) return false;
    if (assigneeId !== null && issue.assigneeId !== assigneeId) return false;
    if (parsed.priority && issue.priority !== parsed.priority) return false;
    if (!parsed.created.every((c) => dayMatches(issue.createdAt, c))) return false;
    const haystack = `${issue.title}\n${issue.body}`.toLowerCase();
    return parsed.text.every((word) => haystack.includes(word));
  };
}
