"""A task's MCP mocks: `mocks/<server>/<tool>.md`, in `claude plugin eval`'s format, read as it is.

Each file stands in for one tool of one MCP server, whose tools the agent sees as
`mcp__<server>__<tool>`. Its YAML front matter holds CPE's keys, its body the answer:

- `type: fixed` (the default): the body is the tool's answer, a template over the call's input
  (`{{input.path}}`, `{{file:name}}`; `_util/mockanswer.py` says how it is filled);
- `error: true`: the answer is a tool error, with that text;
- `expect:` guards on the input (a value, a list of values, a type name, a `/regex/`): a call that
  breaks one is answered with an error and recorded with the verdict `abort`;
- `mocks/<server>/_tools.json`, a saved `tools/list` response, gives the tools' descriptions and
  input schemas (otherwise: none, and any object as input).

What has no equivalent here is a problem naming the file and the key: `type: agent` (a model
plays the server), `_server.md` (one such agent for several tools) and `abort_when`. Every
problem goes to `problem()` with the task's others, before any cell.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_ponybench._util import mockanswer

__all__ = [
    "FRONT_KEYS",
    "MOCKS_DIR",
    "MockCall",
    "Mocks",
    "Responder",
    "SERVER_FILE",
    "TOOLS_FILE",
    "load_mocks",
    "tool_name",
]

MOCKS_DIR = "mocks"
SERVER_FILE = "_server.md"  # CPE's agent answering several tools: no equivalent here
TOOLS_FILE = "_tools.json"
FRONT_KEYS = ("type", "expect", "error", "tools", "abort_when")  # CPE's keys, all of them
MAX_BYTES = 1024 * 1024  # a mock file, as the CLI caps it
PLACEHOLDER = "TODO: replace with the canned result this tool should return"
_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
_LITERAL_FILE = re.compile(r"\{\{\s*file:([^{}]+?)\s*\}\}")
ANY_INPUT: Mapping[str, Any] = {"type": "object", "additionalProperties": True}

Problem = Callable[[str], None]


def tool_name(server: str, tool: str) -> str:
    """The name the agent calls a mocked tool by (the CLI's `mcp__<server>__<tool>`)."""
    return f"mcp__{server}__{tool}"


@dataclass(frozen=True)
class Responder:
    """How one mocked tool answers."""

    server: str
    tool: str
    body: str
    error: bool = False
    expect: Mapping[str, Any] | None = None
    description: str = ""
    schema: Mapping[str, Any] = field(default_factory=lambda: dict(ANY_INPUT))

    @property
    def name(self) -> str:
        return tool_name(self.server, self.tool)

    def spec(self) -> dict[str, Any]:
        """What `_util/mockanswer.answer` reads."""
        return {"body": self.body, "error": self.error, "expect": self.expect}


@dataclass(frozen=True)
class MockCall:
    """One call of a mocked tool, as the session made it and the model got it back."""

    name: str
    input: Mapping[str, Any] | None
    response: str | None  # None: no answer reached the session
    is_error: bool = False
    turn: int = 1

    @property
    def verdict(self) -> str:
        """ok, tool_error or abort (an `expect:` guard refused the input), as CPE records it."""
        if not self.is_error:
            return "ok"
        return "abort" if (self.response or "").startswith(mockanswer.ABORTED) else "tool_error"

    def as_line(self) -> str:
        """One line of the `mock_calls` text a regex reads, in CPE's form and key order."""
        out: dict[str, Any] = {"tool": self.name, "input": self.input}
        if self.response is not None:
            out["output"] = self.response
        if self.is_error:
            out["isError"] = True
        out["verdict"] = self.verdict
        return json.dumps(out, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Mocks:
    """Every mocked tool of a task, and the files of its `mocks/` folder (the server's copy)."""

    responders: tuple[Responder, ...]
    files: Mapping[str, bytes] = field(default_factory=dict, repr=False)  # relpath under mocks/

    @property
    def servers(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.server for r in self.responders))

    @property
    def tools(self) -> frozenset[str]:
        return frozenset(r.name for r in self.responders)

    def of(self, name: str) -> Responder | None:
        return next((r for r in self.responders if r.name == name), None)

    def spec(self, server: str) -> dict[str, Any]:
        """The stand-in server's spec (`_probe/mock_server.py` reads it)."""
        mine = [r for r in self.responders if r.server == server]
        return {
            "server": server,
            "tools": [
                {"name": r.tool, "description": r.description, "inputSchema": dict(r.schema)} for r in mine
            ],
            "responders": {r.tool: r.spec() for r in mine},
        }

    def answer(self, name: str, arguments: Mapping[str, Any]) -> tuple[str, str]:
        """(verdict, text) the stand-in gives a call, as `_probe/mock_server.py` words it."""
        responder = self.of(name)
        if responder is None:
            return "tool_error", f"no mock for {name}"
        prefix = f"{responder.server}/"

        def read(rel: str) -> str | None:
            data = self.files.get(prefix + rel)
            return None if data is None else data.decode("utf-8", "replace")

        verdict, text = mockanswer.answer(responder.spec(), arguments, read)
        if verdict == "abort":
            text = f"{mockanswer.ABORTED}: {responder.server}/{responder.tool} -- {text}"
        return verdict, text

    def describe(self) -> dict[str, Any]:
        return {
            "files": {rel: hashlib.sha256(data).hexdigest()[:16] for rel, data in sorted(self.files.items())}
        }


def _read(path: Path, where: str, problem: Problem) -> str | None:
    try:
        if path.stat().st_size > MAX_BYTES:
            problem(f"{where}: over {MAX_BYTES} bytes")
            return None
        return path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError) as exc:
        problem(f"{where}: cannot be read as UTF-8 text: {exc}")
        return None


def _listings(path: Path, where: str, problem: Problem) -> dict[str, tuple[str, Mapping[str, Any]]]:
    """A server's `_tools.json`: tool -> (description, input schema)."""
    text = _read(path, where, problem)
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        problem(f"{where}: not valid JSON ({exc})")
        return {}
    data = data.get("result", data) if isinstance(data, dict) else data
    tools = data.get("tools") if isinstance(data, dict) else None
    if not isinstance(tools, list) or not all(
        isinstance(t, dict) and isinstance(t.get("name"), str) for t in tools
    ):
        problem(
            f"{where}: expected a saved tools/list response "
            '({"tools": [{"name", "description", "inputSchema"}]})'
        )
        return {}
    out: dict[str, tuple[str, Mapping[str, Any]]] = {}
    for t in tools:
        schema = t.get("inputSchema")
        out[t["name"]] = (
            str(t.get("description") or ""),
            {"type": "object", **schema} if isinstance(schema, dict) else dict(ANY_INPUT),
        )
    return out


def _responder(path: Path, server: str, where: str, folder: Path, problem: Problem) -> Responder | None:
    text = _read(path, where, problem)
    if text is None:
        return None
    from pytest_ponybench._util import yaml12  # YAML only for a task that has mocks

    try:
        head, body = yaml12.split_front_matter(text)
        meta = yaml12.read(head) if head is not None else {}
    except yaml12.YamlProblem as exc:
        problem(f"{where}: {exc}")
        return None
    meta = {} if meta is None else meta
    if not isinstance(meta, dict):
        problem(f"{where}: the front matter must be a YAML mapping (key: value lines)")
        return None
    unknown = sorted(set(map(str, meta)) - set(FRONT_KEYS))
    if unknown:
        problem(f"{where}: key {unknown[0]!r} is not a mock's key (keys: {', '.join(FRONT_KEYS)})")
        return None
    kind = meta.get("type", "fixed")
    if kind == "agent" or "abort_when" in meta:
        key = "type" if kind == "agent" else "abort_when"
        problem(
            f"{where}: key {key!r}: a mock a model plays (type: agent, abort_when) has no equivalent "
            "here; write the tool's answer as the body of a fixed mock"
        )
        return None
    if kind != "fixed":
        problem(f"{where}: key 'type' must be fixed (or agent, which has no equivalent here), not {kind!r}")
        return None
    if "tools" in meta:
        problem(
            f"{where}: key 'tools' belongs in {SERVER_FILE} (a <tool>.md answers the tool it is named after)"
        )
        return None
    error = meta.get("error", False)
    if not isinstance(error, bool):
        problem(f"{where}: key 'error' must be true or false, not {error!r}")
        return None
    expect = meta.get("expect")
    if expect is not None:
        if not isinstance(expect, dict):
            problem(f"{where}: key 'expect' must map input keys to guards, not {expect!r}")
            return None
        if found := mockanswer.guard_problems(_guards(expect)):
            problem(f"{where}: {found[0]}")
            return None
        expect = _guards(expect)
    body = body.lstrip("\n").rstrip()
    if PLACEHOLDER in body:
        problem(f"{where}: still holds the scaffolded placeholder; write the tool's answer as the body")
        return None
    for name in _LITERAL_FILE.findall(body):
        if "{input." in name:
            continue  # named by the call: checked when the call comes
        target = (folder / name).resolve()
        if folder.resolve() not in target.parents or not target.is_file():
            problem(f"{where}: {{{{file:{name}}}}} names no file of mocks/{server}/")
            return None
    return Responder(server, path.stem, body, error=error, expect=expect)


def _guards(value: Any) -> Any:
    """`expect:` as the CLI keeps it: every scalar a string (`3` is "3", `true` is "true")."""
    if isinstance(value, dict):
        return {str(k): _guards(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_guards(v) for v in value]
    return mockanswer.js_text(value) if value is not None else "null"


def _server(folder: Path, problem: Problem) -> list[Responder]:
    server = folder.name
    where = f"{MOCKS_DIR}/{server}/"
    if not _NAME.match(server) or "__" in server:
        problem(
            f"{where}: name the folder after the server's part of the tool name "
            "(letters, digits, _ and -, no __)"
        )
        return []
    listings: dict[str, tuple[str, Mapping[str, Any]]] = {}
    if (folder / TOOLS_FILE).is_file():
        listings = _listings(folder / TOOLS_FILE, where + TOOLS_FILE, problem)
    found: list[Responder] = []
    tried = 0  # <tool>.md files, read or refused: a folder of refused ones has its problems said
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.suffix != ".md" or not path.is_file():
            continue
        tried += 1
        if path.name == SERVER_FILE:
            problem(
                f"{where}{SERVER_FILE}: one agent answering several tools (a model plays the server) "
                "has no equivalent here; give each tool a fixed <tool>.md"
            )
            continue
        if not _NAME.match(path.stem) or "__" in path.stem:
            problem(f"{where}{path.name}: name the file after the tool (letters, digits, _ and -, no __)")
            continue
        responder = _responder(path, server, where + path.name, folder, problem)
        if responder is not None:
            description, schema = listings.get(responder.tool, ("", ANY_INPUT))
            found.append(replace(responder, description=description, schema=dict(schema)))
    if not tried:
        problem(f"{where}: has no <tool>.md: nothing is mocked for {server}")
    return found


def load_mocks(task_folder: Path, problem: Problem) -> Mocks | None:
    """The task's `mocks/` folder read and checked (None without one)."""
    root = task_folder / MOCKS_DIR
    if not root.exists():
        return None
    if not root.is_dir() or root.is_symlink():
        problem(f"{MOCKS_DIR}: must be a folder of mocks/<server>/<tool>.md files")
        return None
    responders: list[Responder] = []
    for folder in sorted(p for p in root.iterdir() if not p.name.startswith(".")):
        if folder.is_dir() and not folder.is_symlink():
            responders += _server(folder, problem)
        else:
            problem(f"{MOCKS_DIR}/{folder.name}: expected a folder per server (mocks/<server>/<tool>.md)")
    files = {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts
    }
    return Mocks(tuple(responders), files)
