"""A regex over JSON text, as `claude plugin eval` writes them, read as a regex over one field.

CPE matches a `tool_used` grader's `input_match` against the tool input as JSON text
(`JSON.stringify`: `{"skill":"careful:review"}`, no spaces) and a `trace` regex against every
stream-json event as a line of JSON. The form authors write to say "this skill fired",
`"skill"\\s*:\\s*"(?:[\\w-]+:)?review"` (CPE's own idiom), is a statement about one string field:
its key, and its value, whole where a closing quote ends it. `field_match` recognises exactly
that form and gives the key and the value's regex (anchored as the quotes anchored it), which
a ponybench `input = { path, regex }` matches against the decoded value; anything else (two
keys, a value that is not a string, alternatives around the key, a pattern that reads JSON's
escapes) is None with the reason, and is listed, never imported with another meaning.

In a trace the key of a tool call's input (`"skill"`, `"file_path"`, `"subagent_type"`) may also
stand in other events; `"name":"<tool>"` names the tool of a call (`TRACE_TOOL_KEY`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["FieldMatch", "TRACE_TOOL_KEY", "field_match", "tool_names"]

TRACE_TOOL_KEY = "name"  # `"name":"Skill"` in a trace: a tool_use block's tool
# A literal quote in a JS regex source: `"`, or `\"` (an escaped quote is the same character).
_QUOTE = re.compile(r'\\?"')
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# What authors write between the key's closing quote and the value's opening one: a colon,
# with optional whitespace on either side (JSON.stringify writes none).
_SEPARATOR = re.compile(r"(?:\\s\*| \*)?:(?:\\s\*| \*)?")
# Escapes of characters a JSON text spells as two (a backslash, a newline, a tab...): a regex
# that names one reads the text, not the value it decodes to.
_JSON_SPELLED = frozenset("\\nrtf")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class FieldMatch:
    """One string field of a tool input: its key, and a JS regex over its decoded value."""

    key: str
    value: str  # JS regex source, `^` anchored (and `$` where the closing quote was)
    whole: bool  # the pattern closed the value with a quote


def _scan(source: str) -> tuple[list[int], list[int]]:
    """(offsets of the top-level `|`, offsets of every literal quote), outside classes."""
    bars: list[int] = []
    quotes: list[int] = []
    depth = 0
    i, n = 0, len(source)
    in_class = False
    while i < n:
        ch = source[i]
        if ch == "\\":
            if source[i + 1 : i + 2] == '"':
                quotes.append(i)
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            bars.append(i)
        elif ch == '"':
            quotes.append(i)
        i += 1
    return bars, quotes


def field_match(source: str) -> tuple[FieldMatch | None, str]:
    """The pattern as (key, value regex), or None and why it says more (or other) than that."""
    bars, _ = _scan(source)
    if bars:
        return None, "it has alternatives around the key (a top-level |)"
    head = _QUOTE.match(source)
    if head is None:
        return None, 'it does not start with a quoted key ("key":)'
    key = _KEY.match(source, head.end())
    close = _QUOTE.match(source, key.end()) if key else None
    sep = _SEPARATOR.match(source, close.end()) if close else None
    opening = _QUOTE.match(source, sep.end()) if sep else None
    if key is None or close is None or sep is None or opening is None:
        return None, 'it is not a quoted key, a colon and a quoted string value ("key":"value")'
    value = source[opening.end() :]
    whole = False
    ending = re.search(r'\\?"$', value)
    if ending is not None and not value[: ending.start()].endswith("\\"):
        value, whole = value[: ending.start()], True
    _, inner_quotes = _scan(value)
    if inner_quotes:
        return None, "it goes on past the value's closing quote (more than one field)"
    escapes = re.findall(r"\\(.)", value, re.S)
    if any(e in _JSON_SPELLED for e in escapes):
        return None, "it reads the JSON text's escapes (a backslash, a newline), not the value"
    if re.search(r"(?<!\\)[\^$]", value.replace("[^", "[")):
        return None, "it anchors (^ or $) inside the JSON text"
    if not value:
        return None, "the value is empty"
    regex = f"^(?:{value})" + ("$" if whole else "")
    return FieldMatch(key=key.group(), value=regex, whole=whole), ""


def tool_names(value: FieldMatch) -> tuple[str, ...] | None:
    """The tool names a `"name":"..."` value spells out: one name, or `(A|B)` / `(?:A|B)`; None
    when it is any other regex (ponybench names tools by globs, not regexes)."""
    if not value.whole:
        return None
    body = value.value.removeprefix("^(?:").removesuffix(")$")
    inner = re.fullmatch(r"\((?:\?:)?([^()]*)\)", body)
    names = (inner.group(1) if inner else body).split("|")
    return tuple(names) if all(_NAME.fullmatch(n) for n in names) else None
