// The data: users, API tokens, projects, issues and comments, kept in memory and saved to a
// JSON file. Every method returns copies, so callers cannot change the store by accident.

import { createHash, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync, renameSync, existsSync } from "node:fs";

const clone = (value) => (value === undefined ? undefined : structuredClone(value));

export function hashToken(token) {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export class Store {
  /**
   * @param {{ clock?: () => Date }} [options] the clock stamps createdAt/updatedAt
   */
  constructor({ clock = () => new Date() } = {}) {
    this.clock = clock;
    this.data = {
      users: [], tokens: [], projects: [], issues: [], comments: [], audit: [],
      seq: { user: 0, issue: 0, comment: 0 },
    };
  }

  now() {
    return this.clock().toISOString();
  }

  // --- persistence ---------------------------------------------------------------------------

  static load(path, options) {
    const store = new Store(options);
    if (existsSync(path)) {
      const data = JSON.parse(readFileSync(path, "utf8"));
      store.data = { ...store.data, ...data, seq: { ...store.data.seq, ...data.seq } };
    }
    return store;
  }

  /** Write to a temporary file and rename it, so a crash never leaves half a file. */
  save(path) {
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify(this.data, null, 2));
    renameSync(tmp, path);
  }

  // --- users and tokens ----------------------------------------------------------------------

  addUser({ login, name = login, email = "" }) {
    if (!/^[a-z0-9][a-z0-9-]{0,38}$/.test(login)) throw new Error(`invalid login: ${login}`);
    if (this.data.users.some((u) => u.login === login)) throw new Error(`login taken: ${login}`);
    const user = { id: ++this.data.seq.user, login, name, email, createdAt: this.now() };
    this.data.users.push(user);
    return clone(user);
  }

  getUser(id) {
    return clone(this.data.users.find((u) => u.id === id));
  }

  findUserByLogin(login) {
    return clone(this.data.users.find((u) => u.login === login));
  }

  /** A new API token for the user; only its hash is kept, so it is shown once. */
  issueToken(userId, label = "") {
    const token = `it_${randomBytes(24).toString("base64url")}`;
    this.data.tokens.push({ hash: hashToken(token), userId, label, createdAt: this.now() });
    return token;
  }

  userForToken(token) {
    const hash = hashToken(token);
    const entry = this.data.tokens.find((t) => t.hash === hash);
    return entry ? this.getUser(entry.userId) : undefined;
  }

  revokeTokens(userId) {
    this.data.tokens = this.data.tokens.filter((t) => t.userId !== userId);
  }

  // --- projects ------------------------------------------------------------------------------

  addProject({ key, name, description = "", maintainers = [], labels = [] }) {
    if (!/^[A-Z][A-Z0-9]{1,9}$/.test(key)) throw new Error(`invalid project key: ${key}`);
    if (this.data.projects.some((p) => p.key === key)) throw new Error(`project exists: ${key}`);
    const project = { key, name, description, maintainers: [...maintainers], labels: [...labels], createdAt: this.now() };
    this.data.projects.push(project);
    return clone(project);
  }

  getProject(key) {
    return clone(this.data.projects.find((p) => p.key === key));
  }

  listProjects() {
    return clone([...this.data.projects].sort((a, b) => a.key.localeCompare(b.key)));
  }

  isMaintainer(projectKey, userId) {
    const project = this.data.projects.find((p) => p.key === projectKey);
    return Boolean(project && project.maintainers.includes(userId));
  }

  // --- issues --------------------------------------------------------------------------------

  addIssue(projectKey, { title, body = "", authorId, labels = [], priority = "normal" }) {
    if (!this.getProject(projectKey)) throw new Error(`no project ${projectKey}`);
    const now = this.now();
    const project = this.data.projects.find((p) => p.key === projectKey);
    const number = this.data.issues.filter((i) => i.projectKey === projectKey).length + 1;
    const issue = {
      id: ++this.data.seq.issue,
      projectKey,
      number,
      ref: `${project.key}-${number}`,
      title,
      body,
      authorId,
      assigneeId: null,
      labels: [...labels],
      priority,
      status: "open",
      createdAt: now,
      updatedAt: now,
      closedAt: null,
    };
    this.data.issues.push(issue);
    return clone(issue);
  }

  getIssue(id) {
    return clone(this.data.issues.find((i) => i.id === id));
  }

  /**
   * A project's issues, newest first.
   * @param {string} projectKey
   * @param {(issue: object) => boolean} [filter]
   */
  listIssues(projectKey, filter = () => true) {
    const issues = this.data.issues.filter((i) => i.projectKey === projectKey && filter(i));
    return clone(issues.sort((a, b) => b.id - a.id));
  }

  /**
   * Set fields of an issue and stamp updatedAt. The caller decides which fields a user may
   * change; this only refuses the fields that identify the issue.
   */
  updateIssue(id, changes) {
    const issue = this.data.issues.find((i) => i.id === id);
    if (!issue) return undefined;
    for (const key of ["id", "projectKey", "number", "ref", "createdAt"]) {
      if (key in changes) throw new Error(`${key} cannot be changed`);
    }
    Object.assign(issue, clone(changes), { updatedAt: this.now() });
    return clone(issue);
  }

  setStatus(id, status) {
    const now = this.now();
    return this.updateIssue(id, { status, closedAt: status === "closed" ? now : null });
  }

  // --- comments ------------------------------------------------------------------------------

  addComment(issueId, { authorId, body }) {
    if (!this.getIssue(issueId)) throw new Error(`no issue ${issueId}`);
    const comment = { id: ++this.data.seq.comment, issueId, authorId, body, createdAt: this.now() };
    this.data.comments.push(comment);
    return clone(comment);
  }

  getComment(id) {
    return clone(this.data.comments.find((c) => c.id === id));
  }

  listComments(issueId) {
    return clone(this.data.comments.filter((c) => c.issueId === issueId).sort((a, b) => a.id - b.id));
  }

  /** Change a comment's body and stamp editedAt. */
  editComment(id, body) {
    const comment = this.data.comments.find((c) => c.id === id);
    if (!comment) return undefined;
    Object.assign(comment, { body, editedAt: this.now() });
    return clone(comment);
  }

  deleteComment(id) {
    const before = this.data.comments.length;
    this.data.comments = this.data.comments.filter((c) => c.id !== id);
    return this.data.comments.length < before;
  }

  countComments(issueId) {
    return this.data.comments.filter((c) => c.issueId === issueId).length;
  }

  // --- audit trail ---------------------------------------------------------------------------

  /** Record who did what in a project; maintainers read it at /api/projects/:key/audit. */
  audit(projectKey, userId, action, details = {}) {
    this.data.audit.push({ at: this.now(), projectKey, userId, action, details: clone(details) });
  }

  /** A project's audit trail, newest first, at most `limit` entries. */
  auditTrail(projectKey, limit = 100) {
    return clone(this.data.audit.filter((a) => a.projectKey === projectKey).slice(-limit).reverse());
  }
}
