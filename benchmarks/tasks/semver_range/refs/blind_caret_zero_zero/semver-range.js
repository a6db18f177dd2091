"use strict";

// npm-style version ranges over SemVer 2.0.0 versions.

const NUM = "0|[1-9]\\d*";
const PRE_ID = `(?:${NUM}|\\d*[a-zA-Z-][0-9a-zA-Z-]*)`;
const VERSION_RE = new RegExp(
  `^(${NUM})\\.(${NUM})\\.(${NUM})(?:-(${PRE_ID}(?:\\.${PRE_ID})*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$`,
);
const XR = "(?:x|X|\\*|0|[1-9]\\d*)";
const XRANGE_RE = new RegExp(`^(${XR})(?:\\.(${XR})(?:\\.(${XR}))?)?$`);

function parseVersion(text) {
  const m = typeof text === "string" ? VERSION_RE.exec(text) : null;
  if (!m) return null;
  return {
    major: m[1],
    minor: m[2],
    patch: m[3],
    pre: m[4] === undefined ? [] : m[4].split("."),
  };
}

// Numbers as digit strings, so huge numbers still compare exactly.
function compareNumbers(a, b) {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const isNumeric = (id) => /^\d+$/.test(id);

function compareIdentifiers(a, b) {
  const an = isNumeric(a);
  const bn = isNumeric(b);
  if (an && bn) return compareNumbers(a, b);
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compare(a, b) {
  for (const key of ["major", "minor", "patch"]) {
    const c = compareNumbers(a[key], b[key]);
    if (c !== 0) return c;
  }
  if (a.pre.length === 0 || b.pre.length === 0) {
    return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  }
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const c = compareIdentifiers(a.pre[i], b.pre[i]);
    if (c !== 0) return c;
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1;
}

const inc = (digits) => (BigInt(digits) + 1n).toString();
const v = (major, minor, patch) => ({ major, minor, patch, pre: [] });
const isX = (part) => part === "x" || part === "X" || part === "*";

// One comparator text -> { tests: [{ op, version }], written: version | null }
function parseComparator(text, range) {
  const bad = () => new TypeError(`invalid comparator ${JSON.stringify(text)} in range ${JSON.stringify(range)}`);
  const op = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(text);
  const operator = op[1] ?? "";
  const rest = op[2];
  const full = parseVersion(rest);
  if (operator === "^" || operator === "~") {
    if (!full) throw bad();
    let upper;
    if (operator === "~") upper = v(full.major, inc(full.minor), "0");
    else if (full.major !== "0") upper = v(inc(full.major), "0", "0");
    else upper = v("0", inc(full.minor), "0");
    return { tests: [{ op: ">=", version: full }, { op: "<", version: upper }], written: full };
  }
  if (operator !== "") {
    if (!full) throw bad();
    return { tests: [{ op: operator, version: full }], written: full };
  }
  if (full) return { tests: [{ op: "=", version: full }], written: full };
  const x = XRANGE_RE.exec(rest);
  if (!x) throw bad();
  const [, major, minor, patch] = x;
  if (isX(major)) {
    if ((minor !== undefined && !isX(minor)) || (patch !== undefined && !isX(patch))) throw bad();
    return { tests: [], written: null };
  }
  if (minor === undefined || isX(minor)) {
    if (patch !== undefined && !isX(patch)) throw bad();
    return { tests: [{ op: ">=", version: v(major, "0", "0") }, { op: "<", version: v(inc(major), "0", "0") }], written: null };
  }
  if (patch === undefined || isX(patch)) {
    return { tests: [{ op: ">=", version: v(major, minor, "0") }, { op: "<", version: v(major, inc(minor), "0") }], written: null };
  }
  throw bad();
}

function passes(version, { op, version: bound }) {
  const c = compare(version, bound);
  switch (op) {
    case ">": return c > 0;
    case ">=": return c >= 0;
    case "<": return c < 0;
    case "<=": return c <= 0;
    default: return c === 0;
  }
}

function parseRange(range) {
  if (typeof range !== "string") throw new TypeError("range must be a string");
  const alternatives = range.split("||").map((alt) => alt.trim());
  return alternatives.map((alt) => {
    if (alt === "") throw new TypeError(`empty alternative in range ${JSON.stringify(range)}`);
    return alt.split(/\s+/).map((c) => parseComparator(c, range));
  });
}

const sameTuple = (a, b) => a.major === b.major && a.minor === b.minor && a.patch === b.patch;

function satisfies(version, range) {
  const parsed = parseVersion(version);
  if (!parsed) throw new TypeError(`invalid version ${JSON.stringify(version)}`);
  const alternatives = parseRange(range);
  return alternatives.some((comparators) => {
    if (!comparators.every((c) => c.tests.every((t) => passes(parsed, t)))) return false;
    if (parsed.pre.length === 0) return true;
    return comparators.some((c) => c.written !== null && c.written.pre.length > 0 && sameTuple(c.written, parsed));
  });
}

module.exports = { satisfies };
