"""The parts an arm is made of, one kind each: what it is, how it is checked, hashed and applied.

An arm is a baseline (no part) or one or more parts (`arms.Arm`). Each part is validated when
the plan is read, so a bad one is one error naming the arm and where it was declared, and it
says what it adds to a session:

| kind | given as | applied as (claude 2.1.332) |
|---|---|---|
| plugin | a plugin folder | `--plugin-dir` (a read-only copy of its content) |
| prompt | text, or `prompt-file:` | `--append-system-prompt` |
| settings | JSON or a JSON file | `--settings` |
| mcp | an MCP config of stdio servers | `--mcp-config` (`--strict-mcp-config` always); a copy of its folder |
| claude-md | a CLAUDE.md, `@workspace` or `@user` | the workspace root or `~/.claude/CLAUDE.md`, memory on |
| skills | a folder of `<name>/SKILL.md` | `~/.claude/skills/<name>/` |
| agents | a folder of `*.md` subagents | `~/.claude/agents/` |
| output-style | a style file | `~/.claude/output-styles/`, selected with `outputStyle` |

Files are copied into the cell's own HOME (or workspace) rather than bound from the host, and a
plugin's or an MCP config's folder is bound as a copy of its content (`content_files`: no VCS
folder, no venv, no cache, nothing of the benchmark's own folders), so the confinement lets a
session read nothing of them but the copies, and never the repository they live in. A link whose
target lies outside its arm's folder is refused: followed, it would send a host file to the
model. What lands in `~/.claude` is read only with the `user` setting source, which such an arm
adds (the HOME is the cell's own and holds nothing else). What the CLI needs of each was
measured on claude 2.1.332: a user skill is listed by its folder's name and only with a
`description` in its front matter; an agent by its front matter's `name`, and only with a
`description`; an output style is selected by its front matter's `name` (case counts), else by
its file name; an MCP config has no working `cwd`, so paths in it are taken from the config's
folder here.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_ponybench.errors import PonybenchError

__all__ = [
    "HOME",
    "MEMORY_FILES",
    "PART_KINDS",
    "Part",
    "Placement",
    "REPEATABLE",
    "SCOPES",
    "SPEC_KINDS",
    "WORKSPACE",
    "COPY_BYTES_MAX",
    "COPY_FILES_MAX",
    "arm_error",
    "content_files",
    "copy_problems",
    "links_out",
    "front_matter",
    "make_part",
    "mcp_tool_prefix",
    "style_body",
    "tree_hash",
]

PART_KINDS = ("plugin", "prompt", "settings", "mcp", "claude-md", "skills", "agents", "output-style")
# As --arm and [tool.ponybench.arms] name them: prompt-file gives a prompt part.
SPEC_KINDS = (
    "plugin",
    "prompt",
    "prompt-file",
    "settings",
    "mcp",
    "claude-md",
    "skills",
    "agents",
    "output-style",
)
# Kinds a composed arm may hold more than once: the CLI takes several plugins and MCP configs;
# two prompts, two settings or two skill folders would have to be merged by rules of our own.
REPEATABLE = ("plugin", "mcp")
WORKSPACE, HOME = "workspace", "home"
SCOPES = ("workspace", "user")  # where a claude-md part is placed
# Files the CLI reads as memory once CLAUDE.md reading is on (a task that seeds one would then
# be read too, under a claude-md arm only).
MEMORY_FILES = ("CLAUDE.md", "CLAUDE.local.md")
# Not part of an MCP folder's content: a python server run unconfined writes its bytecode there.
_TOOL_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def arm_error(label: str, msg: str) -> PonybenchError:
    return PonybenchError(f"arm {label}: {msg}")


def mcp_tool_prefix(server: str) -> str:
    """The prefix the CLI gives a server's tools: `mcp__<server>__`, characters other than
    letters, digits, `_` and `-` made `_` (measured: `dot.notes` -> `mcp__dot_notes__`)."""
    return f"mcp__{_TOOL_NAME_UNSAFE.sub('_', server)}__"


def front_matter(text: str) -> dict[str, str] | None:
    """The `key: value` lines of a Markdown file's front matter, or None when it has none."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    out: dict[str, str] = {}
    for line in lines[1:]:
        if line.strip() == "---":
            return out
        key, sep, value = line.partition(":")
        if sep and key.strip() and not line[:1].isspace():
            out[key.strip()] = value.strip().strip("'\"")
    return None  # never closed


def style_body(text: str) -> str:
    """An output style's instructions: the file without its front matter."""
    if front_matter(text) is None:
        return text.strip()
    return text.lstrip("\ufeff").split("---", 2)[2].strip()


# Names that are never a folder's content: version control's (a repository's history holds
# every file it ever had, the benchmark's hidden checks among them), and bytecode.
_NOT_CONTENT = (".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", ".fslckout", "__pycache__")
# A copy bound into a cell holds at most this much (per folder); a plugin over it is refused.
COPY_FILES_MAX = 10_000
COPY_BYTES_MAX = 200 << 20


def _walk(root: Path, apart: tuple[Path, ...]) -> Iterator[tuple[str, list[str], list[str]]]:
    """os.walk over a folder's content: not VCS folders, the folders lying apart, or anything a
    tool writes beside the content: bytecode (__pycache__), a cache (a folder tagged by
    CACHEDIR.TAG, as .pytest_cache is, which pytest writes during the very run that hashes the
    arm) or a virtual environment (a folder holding pyvenv.cfg). Links are never followed."""
    away = {os.path.realpath(a) for a in apart}

    def kept(top: str, name: str) -> bool:
        path = os.path.join(top, name)
        return (
            name not in _NOT_CONTENT
            and os.path.realpath(path) not in away
            and not any(os.path.isfile(os.path.join(path, tag)) for tag in ("pyvenv.cfg", "CACHEDIR.TAG"))
        )

    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if kept(top, d)]
        yield top, dirs, [f for f in files if f not in _NOT_CONTENT]  # .git is a file in a worktree


def _tree_files(root: Path, apart: tuple[Path, ...]) -> Iterator[Path]:
    for top, _, files in _walk(root, apart):
        for name in files:
            path = Path(top, name)
            if path.is_file():
                yield path


def content_files(root: Path, apart: tuple[Path, ...] = ()) -> list[Path]:
    """What a copy of the folder holds, and what its hash covers: files (a link among them as
    the link), and links to folders, sorted."""
    out: list[Path] = []
    for top, dirs, files in _walk(root, apart):
        out += [Path(top, d) for d in dirs if os.path.islink(os.path.join(top, d))]
        out += [
            Path(top, f)
            for f in files
            if os.path.isfile(os.path.join(top, f)) or os.path.islink(os.path.join(top, f))
        ]
    return sorted(out)


def links_out(root: Path, apart: tuple[Path, ...] = ()) -> list[Path]:
    """Links in the folder's content whose target lies outside it (a copy would send the host
    file to the model, or bind a link to it)."""
    real = Path(os.path.realpath(root))
    return [
        p
        for p in content_files(root, apart)
        if p.is_symlink() and not _inside(Path(os.path.realpath(p)), real)
    ]


def copy_problems(root: Path, apart: tuple[Path, ...] = ()) -> str | None:
    """Why the folder cannot be copied into a cell: a link out of it, or over the caps."""
    if out := links_out(root, apart):
        return (
            f"{out[0]} is a link to {os.path.realpath(out[0])}, outside {root}"
            + (f" (and {len(out) - 1} more)" if len(out) > 1 else "")
            + "; a cell gets a copy of the folder, and links out of it are not followed"
        )
    files = content_files(root, apart)
    size = sum(p.lstat().st_size for p in files)
    if len(files) > COPY_FILES_MAX or size > COPY_BYTES_MAX:
        return (
            f"{root} holds {len(files)} files, {size} bytes: more than a cell's copy takes "
            f"({COPY_FILES_MAX} files, {COPY_BYTES_MAX} bytes); point the arm at the plugin's own folder"
        )
    return None


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def tree_hash(h: Any, root: Path, apart: tuple[Path, ...] = ()) -> None:
    """Add every file under root (relative name and content) to h, in a stable order."""
    for p in sorted(_tree_files(root, apart)):
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(p.read_bytes()).digest())


@dataclass(frozen=True)
class Placement:
    """A file or folder copied into the cell before the session starts."""

    source: Path
    root: str  # WORKSPACE or HOME
    dest: str  # relative to that root
    apart: tuple[Path, ...] = ()  # folders inside source that are the benchmark's: never copied


@dataclass(frozen=True)
class Part:
    """One thing an arm adds. Which fields are set depends on the kind (see the module's table)."""

    kind: str
    text: str | None = None  # prompt; settings JSON; MCP config as the CLI gets it
    path: Path | None = None  # the file or folder it comes from
    scope: str | None = None  # claude-md: workspace | user
    names: tuple[str, ...] = ()  # what the session must list: skills, agents, MCP servers, the style
    source: str | None = None  # mcp: the config as written (sorted), which the hash covers
    # Folders inside a plugin's (or a skills) folder that are the benchmark's, not the arm's (its
    # tasks, fixtures and run dirs, when the folder is the repository ponybench runs in): left
    # out of the hash and the copy, so a run writing its records there does not change the arm
    # it measures, and no cell reads the tasks through it.
    apart: tuple[Path, ...] = ()

    @property
    def user_source(self) -> bool:
        """Read by the CLI only with the `user` setting source (files in the cell's ~/.claude)."""
        return self.kind in ("skills", "agents", "output-style") or (
            self.kind == "claude-md" and self.scope == "user"
        )

    def settings(self) -> dict[str, Any]:
        """What the part adds to the session's --settings."""
        if self.kind == "settings" and self.text is not None:
            data = json.loads(self.text)
            return data if isinstance(data, dict) else {}
        if self.kind == "output-style" and self.names:
            return {"outputStyle": self.names[0]}
        return {}

    def readable(self) -> list[Path]:
        """What of the host a confined session must read for this part (copies need nothing)."""
        if self.kind in ("plugin", "mcp") and self.path is not None:
            return [self.path if self.kind == "plugin" else self.path.parent]
        return []

    def placements(self) -> list[Placement]:
        path = self.path
        if path is None:
            return []
        if self.kind == "claude-md":
            if self.scope == "user":
                return [Placement(path, HOME, ".claude/CLAUDE.md")]
            return [Placement(path, WORKSPACE, "CLAUDE.md")]
        if self.kind == "skills":
            if (path / "SKILL.md").is_file():
                return [Placement(path, HOME, f".claude/skills/{path.name}", self.apart)]
            return [Placement(path / n, HOME, f".claude/skills/{n}", self.apart) for n in self.names]
        if self.kind == "agents":
            return [Placement(f, HOME, f".claude/agents/{f.name}") for f in _agent_files(path)]
        if self.kind == "output-style":
            return [Placement(path, HOME, f".claude/output-styles/{path.name}")]
        return []

    def content_hash(self) -> str:
        """The hash of what the part is; a plugin, prompt or settings part alone keeps the hash
        arms had before parts existed, so earlier run dirs still resume."""
        h = hashlib.sha256(f"{self.kind}\0".encode())
        if self.kind == "prompt" and self.text is not None:
            h.update(self.text.encode())
        elif self.kind == "settings" and self.text is not None:
            h.update(json.dumps(json.loads(self.text), sort_keys=True).encode())
        elif self.kind == "plugin" and self.path is not None:
            tree_hash(h, self.path, apart=self.apart)
        elif self.kind == "mcp" and self.path is not None:
            h.update((self.source or "").encode() + b"\0")
            tree_hash(h, self.path.parent)
        elif self.path is not None:
            h.update(f"{self.scope or ''}\0{self.path.name}\0".encode())
            if self.path.is_dir():
                tree_hash(h, self.path, apart=self.apart)
            else:
                h.update(hashlib.sha256(self.path.read_bytes()).digest())
        return h.hexdigest()[:16]

    def value(self) -> str:
        """The part as `make_part` takes it again (a resume rebuilds arms from run.json)."""
        if self.kind in ("prompt", "settings"):
            return self.text or ""
        where = str(self.path)
        return f"{where}@{self.scope}" if self.kind == "claude-md" else where

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "hash": self.content_hash(), "value": self.value()}
        if self.names:
            out["names"] = list(self.names)
        return out


def _read_text(label: str, path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise arm_error(label, f"{path} is not UTF-8 text: {exc}") from None
    except OSError as exc:
        raise arm_error(label, f"{path} cannot be read: {exc}") from None


def _plugin(label: str, path: Path) -> Part:
    """A plugin dir must exist and hold a .claude-plugin/plugin.json with a name."""
    path = path.expanduser().resolve()
    if not path.is_dir():
        raise arm_error(label, f"plugin dir {path} does not exist")
    manifest = path / ".claude-plugin" / "plugin.json"
    if not manifest.is_file():
        raise arm_error(label, f"{path} is not a plugin dir: {manifest} is missing")
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise arm_error(label, f"{manifest} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str) or not data["name"]:
        raise arm_error(label, f'{manifest} has no "name"')
    return Part("plugin", path=path, names=(data["name"],))


def _settings(label: str, value: Any, base: Path) -> Part:
    text = json.dumps(value, sort_keys=True) if isinstance(value, dict) else str(value).strip()
    if not text.startswith("{"):
        path = (base / text).expanduser()
        if not path.is_file():
            raise arm_error(label, f"settings {value!r} is neither a JSON object nor an existing file")
        text = _read_text(label, _not_linked_out(label, "settings file", path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise arm_error(label, f"settings are not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise arm_error(label, "settings must be a JSON object")
    return Part("settings", text=json.dumps(data, sort_keys=True))


def _not_linked_out(label: str, what: str, given: Path) -> Path:
    """given, resolved; refused when it is a link whose target lies outside its own folder (a
    claude-md linked to ~/.claude/.credentials.json would send that file to the model)."""
    given = Path(os.path.abspath(given.expanduser()))
    real = Path(os.path.realpath(given))
    folder = Path(os.path.realpath(given.parent))
    if not _inside(real, folder):
        raise arm_error(
            label,
            f"{what} {given} is a link to {real}, outside {folder}; an arm's files are copied, and "
            "links out of their folder are not followed (copy the file there instead)",
        )
    return real


def _file(label: str, what: str, value: Any, base: Path) -> Path:
    path = _not_linked_out(label, what, base / str(value))
    if not path.is_file():
        raise arm_error(label, f"{what} {path} does not exist")
    return path


def _folder(label: str, what: str, value: Any, base: Path) -> Path:
    path = _not_linked_out(label, what, base / str(value))
    if not path.is_dir():
        raise arm_error(label, f"{what} {path} does not exist or is not a folder")
    if problem := copy_problems(path):
        raise arm_error(label, f"{what} {path}: {problem}")
    return path


def _mcp_server(label: str, where: str, name: str, server: Any, folder: Path) -> dict[str, Any]:
    """One server of an MCP config, with the paths it names made absolute from the config's
    folder (the CLI starts it in the workspace, and has no `cwd` of its own for it)."""
    if not isinstance(server, dict):
        raise arm_error(label, f"{where}: mcpServers.{name} must be an object")
    kind = server.get("type", "stdio")
    out = dict(server)
    if kind != "stdio":
        # A stdio server runs inside the cell's confinement, started by the CLI there, and that
        # is what the pre-flight and the tests prove; how a confined cell reaches a server over
        # the network (http, sse) is not proven, so such a config is refused rather than half-run.
        raise arm_error(
            label,
            f"{where}: mcpServers.{name}.type is {kind!r}; an mcp arm runs stdio servers only "
            "(a command the cell starts inside its confinement)",
        )
    command, args, env = server.get("command"), server.get("args", []), server.get("env", {})
    if not isinstance(command, str) or not command.strip():
        raise arm_error(label, f"{where}: mcpServers.{name}.command must be a program or a path")
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise arm_error(label, f"{where}: mcpServers.{name}.args must be a list of strings")
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise arm_error(label, f"{where}: mcpServers.{name}.env must be a table of strings")
    if "/" in command:
        found = (folder / command).resolve()
        if not found.exists():
            raise arm_error(label, f"{where}: mcpServers.{name}.command {command!r} does not exist ({found})")
        out["command"] = str(found)
    out["args"] = [
        str((folder / a).resolve()) if a and not a.startswith("-") and (folder / a).exists() else a
        for a in args
    ]
    return out


def _mcp(label: str, value: Any, base: Path) -> Part:
    path = _file(label, "MCP config", value, base)
    try:
        data = json.loads(_read_text(label, path))
    except json.JSONDecodeError as exc:
        raise arm_error(label, f"{path} is not valid JSON: {exc}") from None
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict) or not servers:
        raise arm_error(label, f'{path}: no "mcpServers" object naming at least one server')
    folder = path.parent
    # The folder is copied into the cell (the server runs in its sandbox): never one that holds
    # the project (its tasks and checks), HOME (the user's credentials), the temporary folder
    # (every cell's scratch) or the whole file system.
    home = Path(os.path.realpath(os.path.expanduser("~")))
    tmp = Path(os.path.realpath(tempfile.gettempdir()))
    held = {
        base.resolve(): "the project (its tasks and checks)",
        home: f"HOME ({home}: the user's credentials)",
        tmp: f"the temporary folder ({tmp}: every cell's scratch)",
    }
    for where, what in held.items():
        if _inside(where, folder):
            raise arm_error(
                label,
                f"{path}: the folder of an MCP config is copied into the cell, and {folder} holds "
                f"{what}; put the config and its server in a folder of their own",
            )
    if problem := copy_problems(folder):
        raise arm_error(label, f"{path}: {problem}")
    resolved = {str(n): _mcp_server(label, str(path), str(n), s, folder) for n, s in servers.items()}
    return Part(
        "mcp",
        text=json.dumps({"mcpServers": resolved}, sort_keys=True),
        path=path,
        names=tuple(resolved),
        source=json.dumps(data, sort_keys=True),
    )


def _claude_md(label: str, value: Any, base: Path) -> Part:
    text = str(value)
    where, sep, scope = text.rpartition("@")
    if not sep or "/" in scope:
        where, scope = text, "workspace"
    if scope not in SCOPES:
        raise arm_error(label, f"claude-md {text!r}: place it @workspace or @user, not @{scope}")
    path = _file(label, "CLAUDE.md", where, base)
    if not _read_text(label, path).strip():
        raise arm_error(label, f"{path} is empty")
    return Part("claude-md", path=path, scope=scope)


def _skills(label: str, value: Any, base: Path) -> Part:
    path = _folder(label, "skills folder", value, base)
    one = (path / "SKILL.md").is_file()
    found = [path] if one else sorted(d for d in path.iterdir() if (d / "SKILL.md").is_file())
    if not found:
        raise arm_error(label, f"skills folder {path} holds no <name>/SKILL.md")
    for skill in found:
        meta = front_matter(_read_text(label, skill / "SKILL.md"))
        if not meta or not meta.get("description"):
            raise arm_error(
                label,
                f"{skill / 'SKILL.md'} has no description in its front matter (---/description: .../---): "
                "the CLI does not list such a skill",
            )
    return Part("skills", path=path, names=tuple(s.name for s in found))


def _agent_files(path: Path) -> list[Path]:
    return sorted(f for f in path.glob("*.md") if f.is_file())


def _agents(label: str, value: Any, base: Path) -> Part:
    path = _folder(label, "agents folder", value, base)
    files = _agent_files(path)
    if not files:
        raise arm_error(label, f"agents folder {path} holds no *.md subagent definition")
    names: list[str] = []
    for f in files:
        meta = front_matter(_read_text(label, f)) or {}
        missing = [k for k in ("name", "description") if not meta.get(k)]
        if missing:
            raise arm_error(
                label,
                f"{f}: its front matter has no {' or '.join(missing)}: the CLI does not list such an agent",
            )
        if meta["name"] in names:
            raise arm_error(label, f"{f}: agent name {meta['name']!r} is given twice in {path}")
        names.append(meta["name"])
    return Part("agents", path=path, names=tuple(names))


def _output_style(label: str, value: Any, base: Path) -> Part:
    path = _file(label, "output style", value, base)
    text = _read_text(label, path)
    if path.suffix != ".md":
        raise arm_error(label, f"output style {path} must be a .md file (the CLI reads no other)")
    if not style_body(text):
        raise arm_error(label, f"output style {path} has no instructions after its front matter")
    name = (front_matter(text) or {}).get("name") or path.stem
    return Part("output-style", path=path, names=(name,))


def make_part(kind: str, value: Any, base: Path, label: str) -> Part:
    """One part of an arm from its kind (as --arm spells it) and value; paths are relative to
    base (the project root). label names the arm and where it was declared, for errors."""
    if kind == "plugin":
        return _plugin(label, base / str(value))
    if kind == "prompt":
        if not isinstance(value, str) or not value.strip():
            raise arm_error(label, "the prompt is empty")
        return Part("prompt", text=value)
    if kind == "prompt-file":
        path = (base / str(value)).expanduser()
        if not path.is_file():
            raise arm_error(label, f"prompt file {path} does not exist")
        text = _read_text(label, _not_linked_out(label, "prompt file", path))
        if not text.strip():
            raise arm_error(label, f"prompt file {path} is empty")
        return Part("prompt", text=text)
    if kind == "settings":
        return _settings(label, value, base)
    makers = {
        "mcp": _mcp,
        "claude-md": _claude_md,
        "skills": _skills,
        "agents": _agents,
        "output-style": _output_style,
    }
    if kind in makers:
        if not isinstance(value, str) or not value.strip():
            raise arm_error(label, f"{kind} needs a path")
        return makers[kind](label, value.strip(), base)
    raise arm_error(label, f"unknown kind {kind!r}; expected one of {', '.join(SPEC_KINDS)}")
