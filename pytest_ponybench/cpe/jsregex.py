"""A `claude plugin eval` regex (JavaScript RegExp syntax and flags) as a Python `re` pattern.

The two dialects agree on most patterns; where they do not, this translates what has an exact
Python form and refuses the rest (a refused grader is listed, never imported with another
meaning):

- named groups `(?<name>...)` and back-references `\\k<name>` become `(?P<name>...)`, `(?P=name)`;
- `$` without the `m` flag is the end of the text in JS but also the place before a final newline
  in Python: it becomes `\\Z`;
- `[^]` (any character) becomes `[\\s\\S]`, `[]` (nothing) `(?!)`; a `[` inside a class is escaped
  (Python would read a nested set);
- `\\u{...}` (code points, under `u`) becomes `\\U........`; `\\cX` (control characters) and the
  `v` flag's class set operations have no Python form: refused;
- flags: `i`, `m`, `s` as they are; `g`, `d`, `u` change nothing a test sees; `y` (sticky) and
  `v` are refused.

What stays different, said in docs/cpe.md: JS `\\d`, `\\w` and `\\b` are ASCII only, Python's match
any Unicode digit or letter; JS `.` also stops at `\\r`, `\\u2028` and `\\u2029`.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

__all__ = ["Translated", "translate"]


@dataclass(frozen=True)
class Translated:
    """The Python pattern and flags, or why there is none."""

    pattern: str | None
    flags: str = ""
    why: str | None = None


def _refuse(why: str) -> Translated:
    return Translated(None, "", why)


def translate(pattern: str, js_flags: str = "") -> Translated:
    for flag, why in (("y", "the sticky flag y"), ("v", "the v flag (class set operations)")):
        if flag in js_flags:
            return _refuse(f"{why} has no Python equivalent")
    multiline = "m" in js_flags
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= n:
                return _refuse("the pattern ends with a lone backslash")
            nxt = pattern[i + 1]
            if nxt == "k" and (m := re.match(r"<([A-Za-z_]\w*)>", pattern[i + 2 :])):
                out.append(f"(?P={m[1]})")
                i += 2 + m.end()
                continue
            if nxt == "u" and (m := re.match(r"\{([0-9A-Fa-f]{1,6})\}", pattern[i + 2 :])):
                out.append(f"\\U{int(m[1], 16):08x}")
                i += 2 + m.end()
                continue
            if nxt == "c":
                return _refuse("\\c (a control character escape) has no Python equivalent")
            if nxt == "/":
                out.append("/")
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch == "[":
            end, body = _class(pattern, i)
            if end is None:
                return _refuse("a character class is not closed")
            out.append(body)
            i = end
            continue
        if ch == "(" and pattern.startswith("(?<", i) and pattern[i + 3 : i + 4] not in ("=", "!"):
            out.append("(?P<")
            i += 3
            continue
        if ch == "$" and not multiline:
            out.append(r"\Z")
            i += 1
            continue
        out.append(ch)
        i += 1
    text = "".join(out)
    flags = "".join(f for f in "ims" if f in js_flags)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            re.compile(text, _py_flags(flags))
    except (re.error, FutureWarning, OverflowError, RecursionError) as exc:
        return _refuse(f"not a pattern Python's re reads the same way: {exc}")
    return Translated(text, flags)


def _class(pattern: str, start: int) -> tuple[int | None, str]:
    """(index after the class, its Python form) for the class opening at `start`."""
    i = start + 1
    negate = pattern.startswith("^", i)
    if negate:
        i += 1
    if pattern.startswith("]", i):  # JS: [] matches nothing, [^] anything
        return i + 1, r"[\s\S]" if negate else "(?!)"
    body: list[str] = ["[^" if negate else "["]
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= len(pattern):
                return None, ""
            if pattern[i + 1] == "c":
                return None, ""
            body.append(pattern[i : i + 2] if pattern[i + 1] != "/" else "/")
            i += 2
            continue
        if ch == "]":
            body.append("]")
            return i + 1, "".join(body)
        body.append("\\[" if ch == "[" else ch)
        i += 1
    return None, ""


def _py_flags(flags: str) -> int:
    value = 0
    for f, bit in (("i", re.IGNORECASE), ("m", re.MULTILINE), ("s", re.DOTALL)):
        if f in flags:
            value |= bit
    return value
