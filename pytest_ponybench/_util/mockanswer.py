"""How a mocked MCP tool answers one call: `claude plugin eval`'s fixed responders, as it runs them.

One implementation for both sides: the stand-in server a cell starts (`_probe/mock_server.py`
runs a copy of this file, beside it in the cell's read-only copy) and the harness, which proves a
task's graders on its references with the answers the server would give. Standard library only,
and nothing of the package: the copy runs with `python -I -S` inside the cell.

A responder is plain data (`core.mocks.Responder.spec`): `body` (the answer, a template), `error`
(the answer is a tool error) and `expect` (guards on the input, or None). The answer:

- each guard of `expect` checks the input's value at its dotted path: a list of allowed values, a
  type name (string, number, bool, boolean, object, array), a `/regex/flags` (flags i and s), or
  a literal; a nested mapping guards the keys under it. The first guard a call breaks makes the
  verdict `abort` ("input violates expect: ...");
- else the body with `{{input.a.b}}` replaced by the input's value there (a string as it is,
  anything else as compact JSON, a missing one as nothing) and `{{file:name}}` by a file's text
  from the server's folder (`{input.x}` inside the name, a plain file-name segment); a template
  that cannot be filled is a `tool_error` saying why; otherwise `ok`, or `tool_error` for an
  error responder.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["ABORTED", "MISSING", "TYPE_NAMES", "VERDICTS", "answer", "guard_problems", "js_text", "value_at"]

VERDICTS = ("ok", "tool_error", "abort")
TYPE_NAMES = ("string", "number", "bool", "boolean", "object", "array")
ABORTED = "eval aborted by mock"  # how an abort's text starts, as the CLI's stand-ins say it
MAX_GUARDS = 32
_TEMPLATE = re.compile(r"\{\{\s*(input\.[A-Za-z0-9_.-]+|file:(?:[^{}]|\{input\.[A-Za-z0-9_.-]+\})+?)\s*\}\}")
_IN_NAME = re.compile(r"\{input\.([A-Za-z0-9_.-]+)\}")
_SEGMENT = re.compile(r"^(?!\.{1,2}$)[A-Za-z0-9._-]+$")
_REGEX = re.compile(r"^/(.+)/([a-z]*)$", re.S)


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()


def value_at(data: Any, path: str) -> Any:
    """The value at a dotted JSON path (`edits.0.new_string`: numeric parts index lists), or
    MISSING (graders read tool inputs through it too)."""
    here = data
    for part in path.split("."):
        if isinstance(here, list):
            if not part.isdigit() or int(part) >= len(here):
                return MISSING
            here = here[int(part)]
        elif isinstance(here, Mapping) and part in here:
            here = here[part]
        else:
            return MISSING
    return here


def js_text(value: Any) -> str:
    """A value as JavaScript's String() writes it (how the CLI compares guards): true, 3, 3.5."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str | int | float):
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _shown(value: Any) -> str:
    if value is MISSING:
        return "(missing)"
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 80 else text[:77] + "..."


def _kind(value: Any) -> str:
    if value is MISSING or value is None:
        return "missing"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, int | float):
        return "number"
    return "string"


def _regex(guard: str) -> re.Pattern[str] | None:
    match = _REGEX.match(guard)
    if match is None:
        return None
    flags = (re.I if "i" in match[2] else 0) | (re.S if "s" in match[2] else 0)
    return re.compile(match[1], flags)


def _equal(value: Any, want: str) -> bool:
    return isinstance(value, str | int | float | bool) and js_text(value) == want


def _broken(data: Any, guards: Mapping[str, Any], prefix: str = "") -> str | None:
    """The first guard the input breaks, in words; None when it keeps them all."""
    for key, guard in guards.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        value = value_at(data, path)
        if isinstance(guard, list):
            if not any(_equal(value, str(g)) for g in guard):
                return f"{path} = {_shown(value)} is not one of [{', '.join(str(g) for g in guard)}]"
        elif isinstance(guard, Mapping):
            if (inner := _broken(data, guard, path)) is not None:
                return inner
        elif (pattern := _regex(str(guard))) is not None:
            text = js_text(value) if isinstance(value, str | int | float | bool) else None
            if text is None or pattern.search(text) is None:
                return f"{path} = {_shown(value)} does not match {guard}"
        elif str(guard) in TYPE_NAMES:
            want = "bool" if guard == "boolean" else str(guard)
            if _kind(value) != want:
                return f"{path} = {_shown(value)} is not a {guard}"
        elif not _equal(value, str(guard)):
            return f'{path} = {_shown(value)} is not "{guard}"'
    return None


def guard_problems(guards: Mapping[str, Any], prefix: str = "") -> list[str]:
    """What is wrong with an `expect:` mapping, each problem naming its key."""
    out: list[str] = []
    if not prefix and _count(guards) > MAX_GUARDS:
        return [f"expect: more than {MAX_GUARDS} guards (every call checks each of them)"]
    for key, guard in guards.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(guard, list):
            if not guard:
                out.append(f"expect.{path}: an empty list of allowed values can never be met")
        elif isinstance(guard, Mapping):
            out += guard_problems(guard, path)
        elif _REGEX.match(str(guard)):
            match = _REGEX.match(str(guard))
            assert match is not None
            if set(match[2]) - {"i", "s"}:
                out.append(f"expect.{path}: {guard}: only the i and s flags are supported")
            else:
                try:
                    _regex(str(guard))
                except re.error as exc:
                    out.append(f"expect.{path}: {guard} is not a valid regular expression ({exc})")
    return out


def _segment(value: Any) -> str:
    return "" if value is MISSING or value is None else js_text(value)


def _count(guards: Mapping[str, Any]) -> int:
    return sum(_count(g) if isinstance(g, Mapping) else 1 for g in guards.values())


def answer(
    responder: Mapping[str, Any], arguments: Mapping[str, Any], read: Callable[[str], str | None]
) -> tuple[str, str]:
    """(verdict, text) of one call: `read(name)` is a file of the server's folder, or None."""
    expect = responder.get("expect")
    if isinstance(expect, Mapping) and (why := _broken(arguments, expect)) is not None:
        return "abort", f"input violates expect: {why}"
    body = str(responder.get("body", ""))
    out: list[str] = []
    problem: str | None = None
    at = 0
    for match in _TEMPLATE.finditer(body):
        out.append(body[at : match.start()])
        at = match.end()
        ref = match[1]
        if ref.startswith("input."):
            value = value_at(arguments, ref[len("input.") :])
            if value is MISSING or value is None:
                continue
            out.append(value if isinstance(value, str) else json.dumps(value, separators=(",", ":")))
            continue
        name, bad = ref[len("file:") :].strip(), None
        for inner in _IN_NAME.finditer(name):
            value = value_at(arguments, inner[1])
            if not _SEGMENT.match(_segment(value)):
                bad = f"{{input.{inner[1]}}} = {_shown(value)} is not a plain file-name segment"
        name = _IN_NAME.sub(lambda m: _segment(value_at(arguments, m[1])), name)
        if bad is None and (name.startswith("/") or ".." in name.split("/")):
            bad = f"{{{{file:{name}}}}} names a path outside the mock's folder"
        text = None if bad is not None else read(name)
        if bad is None and text is None:
            bad = f"{{{{file:{name}}}}}: no such file in the mock's folder"
        problem = problem or bad
        out.append(text or "")
    out.append(body[at:])
    if problem is not None:
        return "tool_error", problem
    return ("tool_error" if responder.get("error") else "ok"), "".join(out)
