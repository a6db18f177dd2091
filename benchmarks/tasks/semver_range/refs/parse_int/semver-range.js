"use strict";

const NUM = "(0|[1-9]\\d*)";
const IDENT = "(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)";
const BUILD = "(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?";
const FULL = `${NUM}\\.${NUM}\\.${NUM}(?:-(${IDENT}(?:\\.${IDENT})*))?${BUILD}`;
const VERSION_RE = new RegExp(`^${FULL}$`);
const COMPARATOR_RE = new RegExp(`^(\\^|~|>=|<=|>|<|=)?(${NUM}\\.${NUM}\\.${NUM}(?:-[^+]*)?${BUILD})$`);
const X = "(?:[xX*])";
const XRANGE_RE = new RegExp(`^(?:${X}|${NUM}(?:\\.${X}(?:\\.${X})?)?|${NUM}\\.${NUM}(?:\\.${X})?)$`);

function parseVersion(text) {
  const [core, ...rest] = String(text).trim().replace(/^v/, "").split("+")[0].split("-");
  const nums = core.split(".").map((n) => parseInt(n, 10));
  if (nums.length !== 3 || nums.some(Number.isNaN)) throw new TypeError(`invalid version: ${text}`);
  const pre = rest.length ? rest.join("-").split(".") : [];
  return { nums, pre };
}

function compareIdent(a, b) {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return Math.sign(Number(a) - Number(b));
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) {
    if (a.nums[i] !== b.nums[i]) return a.nums[i] < b.nums[i] ? -1 : 1;
  }
  if (!a.pre.length || !b.pre.length) return (b.pre.length > 0) - (a.pre.length > 0);
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const c = compareIdent(a.pre[i], b.pre[i]);
    if (c) return c;
  }
  return Math.sign(a.pre.length - b.pre.length);
}

const version = (major, minor, patch) => ({ nums: [major, minor, patch], pre: [] });

// One comparator token -> { tests: [[op, version]], written: version | null }
function parseComparator(token) {
  const m = COMPARATOR_RE.exec(token);
  if (m) {
    const v = parseVersion(m[2]);
    const [major, minor, patch] = v.nums;
    if (m[1] === "^") {
      const upper = major > 0 ? version(major + 1, 0, 0) : minor > 0 ? version(0, minor + 1, 0) : version(0, 0, patch + 1);
      return { tests: [[">=", v], ["<", upper]], written: v };
    }
    if (m[1] === "~") return { tests: [[">=", v], ["<", version(major, minor + 1, 0)]], written: v };
    return { tests: [[m[1] || "=", v]], written: v };
  }
  const x = XRANGE_RE.exec(token);
  if (!x) throw new TypeError(`invalid comparator: ${JSON.stringify(token)}`);
  const parts = token.split(".").filter((p) => !/^[xX*]$/.test(p)).map(Number);
  if (parts.length === 0) return { tests: [], written: null };
  if (parts.length === 1) return { tests: [[">=", version(parts[0], 0, 0)], ["<", version(parts[0] + 1, 0, 0)]], written: null };
  return { tests: [[">=", version(parts[0], parts[1], 0)], ["<", version(parts[0], parts[1] + 1, 0)]], written: null };
}

const OPS = {
  "=": (c) => c === 0,
  ">": (c) => c > 0,
  ">=": (c) => c >= 0,
  "<": (c) => c < 0,
  "<=": (c) => c <= 0,
};

function satisfiesSet(v, comparators) {
  for (const { tests } of comparators) {
    for (const [op, bound] of tests) {
      if (!OPS[op](compare(v, bound))) return false;
    }
  }
  if (v.pre.length === 0) return true;
  return comparators.some(({ written }) => written && written.pre.length > 0
    && written.nums.every((n, i) => n === v.nums[i]));
}

function satisfies(versionText, range) {
  const v = parseVersion(versionText);
  if (typeof range !== "string") throw new TypeError("range must be a string");
  const sets = range.trim().split("||").map((alt) => {
    const tokens = alt.trim().split(/ +/);
    if (tokens.length === 1 && tokens[0] === "") throw new TypeError(`empty alternative in range ${JSON.stringify(range)}`);
    return tokens.map(parseComparator);
  });
  return sets.some((set) => satisfiesSet(v, set));
}

module.exports = { satisfies };
