"""created:OP DAY in issue search, through the matcher, the API and the search page; and the
regression test the prompt asks for: the workspace's suite passes as it is and fails with
src/search.js as it was before the fix."""

import json

import pytest
from node_suite import copy_workspace, run_suite, summary

# Six issues of WEB, created at these instants (UTC), ids 1..6 in this order.
CREATED = [
    "2024-03-04T23:59:59.000Z",
    "2024-03-05T00:00:00.000Z",
    "2024-03-05T12:00:00.000Z",
    "2024-03-05T23:59:59.999Z",
    "2024-03-06T00:00:00.000Z",
    "2024-03-07T10:00:00.000Z",
]

# query -> the ids it must match
CASES = {
    "created:>2024-03-05": [5, 6],
    "created:>2024-03-04": [2, 3, 4, 5, 6],
    "created:>2024-03-06": [6],
    "created:>2024-03-07": [],
    "created:>=2024-03-05": [2, 3, 4, 5, 6],
    "created:<2024-03-05": [1],
    "created:<=2024-03-05": [1, 2, 3, 4],
    "created:2024-03-05": [2, 3, 4],
    "created:>2024-03-04 created:<2024-03-06": [2, 3, 4],
    "created:>2024-03-05 created:<=2024-03-06": [5],
}

WORLD = """
const { Store } = await loadOther("src/store.js");
const createApp = pick('createApp');
let clock = new Date("2024-03-01T00:00:00Z");
const store = new Store({ clock: () => clock });
const ann = store.addUser({ login: "ann" });
store.addProject({ key: "WEB", name: "Website", maintainers: [ann.id], labels: [] });
for (const at of CREATED) {
  clock = new Date(at);
  store.addIssue("WEB", { title: `Issue at ${at}`, authorId: ann.id });
}
clock = new Date("2024-03-10T12:00:00Z");
const app = createApp({ store });
""".replace("CREATED", json.dumps(CREATED))


# The server's own time zone must not matter: the days are UTC days.
ZONES = ["UTC", "America/New_York", "Asia/Tokyo"]


@pytest.fixture(scope="module", params=ZONES)
def through_matcher(request, js_batch):
    return js_batch(
        "src/search.js",
        env={"TZ": request.param},
        body=f"""
        const parseQuery = pick('parseQuery');
        const matcher = pick('matcher');
        const issues = {json.dumps(CREATED)}.map((at, i) => ({{ id: i + 1, title: "t", body: "", status: "open",
          labels: [], authorId: 1, assigneeId: null, priority: "normal", createdAt: at }}));
        const out = {{}};
        for (const q of {json.dumps(list(CASES))}) {{
          const r = attempt(() => {{
            const m = matcher(parseQuery(q), () => undefined);
            return issues.filter((i) => m(i)).map((i) => i.id);
          }});
          out[q] = r.ok ? r.value : `threw ${{r.name}}: ${{r.message}}`;
        }}
        return {{ out, zone: process.env.TZ }};
    """,
    )


@pytest.fixture(scope="module")
def through_api(js_batch):
    return js_batch(
        "src/app.js",
        WORLD
        + f"""
        const out = {{}};
        for (const q of {json.dumps(list(CASES))}) {{
          const url = "/api/projects/WEB/issues?state=all&q=" + encodeURIComponent(q);
          const r = await app.handle({{ method: "GET", url, headers: {{}}, body: "" }});
          let body = r.body;
          try {{ body = JSON.parse(r.body); }} catch {{}}
          out[q] = r.status === 200 && Array.isArray(body)
            ? body.map((i) => i.id).sort((a, b) => a - b)
            : `status ${{r.status}}: ${{JSON.stringify(body).slice(0, 200)}}`;
        }}
        return out;
    """,
    )


@pytest.mark.parametrize("query", list(CASES))
def test_the_matcher_reads_whole_utc_days(through_matcher, query):
    got = through_matcher["out"][query]
    assert got == CASES[query], (
        f"matcher(parseQuery({query!r})) with the server in time zone {through_matcher['zone']} over issues "
        f"created at {CREATED} (ids 1..6) matched {got}, "
        f"expected {CASES[query]}: `>D` is from the next day's midnight on, `<=D` up to the end of D"
    )


@pytest.mark.parametrize("query", list(CASES))
def test_the_api_q_parameter_reads_whole_utc_days(through_api, query):
    got = through_api[query]
    assert got == CASES[query], (
        f"GET /api/projects/WEB/issues?state=all&q={query} over issues created at {CREATED} (ids 1..6) "
        f"gave {got}, expected {CASES[query]}"
    )


def test_the_search_page_lists_the_later_days_only(js):
    got = js(
        "src/app.js",
        WORLD
        + """
        const url = "/projects/WEB/search?q=" + encodeURIComponent("created:>2024-03-05");
        const r = await app.handle({ method: "GET", url, headers: {}, body: "" });
        return { status: r.status, body: String(r.body) };
    """,
    )
    assert got["status"] == 200, f"the search page answered {got['status']}"
    shown = [at for at in CREATED if f"Issue at {at}" in got["body"]]
    assert shown == CREATED[4:], (
        f"the search page for created:>2024-03-05 shows the issues created at {shown}, expected {CREATED[4:]}"
    )


# src/search.js as the workspace held it before the fix (the seed), to run the agent's tests on.
OLD_SEARCH = r"""// The search box: "is:open label:bug author:ann crash on save".
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
    case ">": return t > start;
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
"""


def test_the_whole_suite_passes(tmp_path):
    proc = run_suite(copy_workspace(tmp_path / "ws"))
    assert proc.returncode == 0, f"`node --test test/` fails on the workspace: {summary(proc)}"


def test_a_test_reproduces_the_report(tmp_path):
    ws = copy_workspace(tmp_path / "ws")
    (ws / "src" / "search.js").write_text(OLD_SEARCH, encoding="utf-8")
    proc = run_suite(ws)
    assert proc.returncode != 0, (
        "with src/search.js as it was before the fix, `node --test test/` still passes: no test under "
        "test/ reproduces the report (created:>2024-03-05 matching an issue of March 5th)"
    )
