// npm-style range matching, written as small classes.
const NUMERIC = /^(0|[1-9][0-9]*)$/;
const ALNUM = /^[0-9A-Za-z-]+$/;

class SemVer {
  constructor(text) {
    if (typeof text !== "string") throw new TypeError("version must be a string");
    let rest = text;
    const plus = rest.indexOf("+");
    if (plus !== -1) {
      const build = rest.slice(plus + 1).split(".");
      if (build.some((id) => !ALNUM.test(id))) throw new TypeError(`bad build metadata in ${text}`);
      rest = rest.slice(0, plus);
    }
    const dash = rest.indexOf("-");
    this.prerelease = [];
    if (dash !== -1) {
      this.prerelease = rest.slice(dash + 1).split(".");
      for (const id of this.prerelease) {
        if (!ALNUM.test(id) || (/^[0-9]+$/.test(id) && !NUMERIC.test(id))) {
          throw new TypeError(`bad prerelease identifier ${JSON.stringify(id)} in ${text}`);
        }
      }
      rest = rest.slice(0, dash);
    }
    const parts = rest.split(".");
    if (parts.length !== 3 || !parts.every((p) => NUMERIC.test(p))) throw new TypeError(`not a version: ${text}`);
    [this.major, this.minor, this.patch] = parts.map(Number);
  }

  static of(major, minor, patch) {
    return new SemVer(`${major}.${minor}.${patch}`);
  }

  sameCore(other) {
    return this.major === other.major && this.minor === other.minor && this.patch === other.patch;
  }

  compare(other) {
    for (const key of ["major", "minor", "patch"]) {
      if (this[key] !== other[key]) return this[key] < other[key] ? -1 : 1;
    }
    const a = this.prerelease;
    const b = other.prerelease;
    if (a.length === 0 || b.length === 0) return b.length - a.length === 0 ? 0 : a.length === 0 ? 1 : -1;
    for (let i = 0; i < a.length && i < b.length; i++) {
      if (a[i] === b[i]) continue;
      const an = NUMERIC.test(a[i]);
      const bn = NUMERIC.test(b[i]);
      if (an && bn) return Number(a[i]) < Number(b[i]) ? -1 : 1;
      if (an || bn) return an ? -1 : 1;
      return a[i] < b[i] ? -1 : 1;
    }
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  }
}

class Comparator {
  constructor(op, version) {
    this.op = op;
    this.version = version;
  }

  test(v) {
    const c = v.compare(this.version);
    switch (this.op) {
      case "<": return c < 0;
      case "<=": return c <= 0;
      case ">": return c > 0;
      case ">=": return c >= 0;
      default: return c === 0;
    }
  }
}

const WILD = new Set(["x", "X", "*"]);

function expand(token) {
  // -> [comparators, the version written, if any]
  for (const op of [">=", "<=", ">", "<", "=", "^", "~"]) {
    if (!token.startsWith(op)) continue;
    const v = new SemVer(token.slice(op.length));
    if (op === "^") {
      const upper = v.major > 0 ? SemVer.of(v.major + 1, 0, 0)
        : v.minor > 0 ? SemVer.of(0, v.minor + 1, 0) : SemVer.of(0, 0, v.patch + 1);
      return [[new Comparator(">=", v), new Comparator("<", upper)], v];
    }
    if (op === "~") return [[new Comparator(">=", v), new Comparator("<", SemVer.of(v.major, v.minor + 1, 0))], v];
    return [[new Comparator(op, v)], v];
  }
  const parts = token.split(".");
  if (parts.length === 3 && !parts.some((p) => WILD.has(p)) || token.includes("-") || token.includes("+")) {
    const v = new SemVer(token);
    return [[new Comparator("=", v)], v];
  }
  if (parts.length > 3) throw new TypeError(`bad x-range ${token}`);
  const firstWild = parts.findIndex((p) => WILD.has(p));
  const fixed = firstWild === -1 ? parts : parts.slice(0, firstWild);
  if (parts.slice(fixed.length).some((p) => !WILD.has(p))) throw new TypeError(`bad x-range ${token}`);
  if (!fixed.every((p) => NUMERIC.test(p))) throw new TypeError(`bad x-range ${token}`);
  const n = fixed.map(Number);
  if (n.length === 0) return [[], null];
  if (n.length === 1) return [[new Comparator(">=", SemVer.of(n[0], 0, 0)), new Comparator("<", SemVer.of(n[0] + 1, 0, 0))], null];
  if (n.length === 2) return [[new Comparator(">=", SemVer.of(n[0], n[1], 0)), new Comparator("<", SemVer.of(n[0], n[1] + 1, 0))], null];
  throw new TypeError(`bad x-range ${token}`);
}

function satisfies(version, range) {
  const v = new SemVer(version);
  if (typeof range !== "string") throw new TypeError("range must be a string");
  let matched = false;
  for (const alternative of range.split("||")) {
    const tokens = alternative.split(" ").filter((t) => t !== "");
    if (tokens.length === 0) throw new TypeError(`empty alternative in ${JSON.stringify(range)}`);
    let ok = true;
    let prereleaseNamed = false;
    for (const token of tokens) {
      const [comparators, written] = expand(token);
      ok = ok && comparators.every((c) => c.test(v));
      if (written && written.prerelease.length > 0 && written.sameCore(v)) prereleaseNamed = true;
    }
    if (ok && (v.prerelease.length === 0 || prereleaseNamed)) matched = true;
  }
  return matched;
}

module.exports = { satisfies };
