"""An arm's files laid into the cell before its session starts: a CLAUDE.md into the workspace,
skills, agents, an output style or a user CLAUDE.md into the cell's own `~/.claude` (for Claude
Code; another CLI reads skills from `~/.agents/skills` and its user memory where it keeps it,
`agent_placements`).

Copies, never links to the host: a confined session reads its workspace and HOME and nothing of
the project, and a copy is also what a user of the arm would have installed. A plugin's folder
and an MCP config's folder are copied too, once per process into its private scratch, and bound
read-only (`sealed`): a plugin that is the repository ponybench runs in (`plugin = "."`) reaches
the cell as its content only, never its history, tasks, runs or anything else beside it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_ponybench.core.armparts import HOME, WORKSPACE, Part, Placement, content_files, copy_problems
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.isolation.scratch import session_dir

__all__ = [
    "AGENT_SKILLS",
    "COPY_IGNORE",
    "agent_placements",
    "copy_folder",
    "lay_arm",
    "plugin_brings",
    "plugin_mcp_servers",
    "sealed",
]

COPY_IGNORE = (".git", "__pycache__")
# Where OpenCode, Copilot CLI and Codex read a user's skills alike (each reads more places).
AGENT_SKILLS = ".agents/skills"


def _ignored(apart: tuple[Path, ...]) -> Any:
    """copytree's ignore: the VCS and cache folders, and the benchmark's own folders (a skills
    folder that is the repository holds the tasks and the run dirs)."""
    away = {os.path.realpath(a) for a in apart}
    usual = shutil.ignore_patterns(*COPY_IGNORE)

    def ignore(folder: str, names: list[str]) -> set[str]:
        return set(usual(folder, names)) | {
            n for n in names if os.path.realpath(os.path.join(folder, n)) in away
        }

    return ignore


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def plugin_brings(plugin: Path) -> dict[str, list[str]]:
    """What a Claude Code plugin folder brings, by kind: its skill folders, agents, commands,
    the events it hooks and its MCP servers (`hooks/hooks.json` or the manifest's `hooks`;
    `.mcp.json` or the manifest's `mcpServers`)."""
    manifest = _json(plugin / ".claude-plugin" / "plugin.json")
    manifest = manifest if isinstance(manifest, dict) else {}
    events: set[str] = set()
    given = manifest.get("hooks")
    sources = [_json(plugin / "hooks" / "hooks.json")]
    sources += [
        _json(plugin / g) if isinstance(g, str) else g
        for g in (given if isinstance(given, list) else [given])
    ]
    for data in sources:
        hooks = data.get("hooks") if isinstance(data, dict) and "hooks" in data else data
        if isinstance(hooks, dict):
            events.update(str(k) for k in hooks)
    return {
        "skills": sorted(f.parent.name for f in plugin.glob("skills/*/SKILL.md")),
        "agents": sorted(f.stem for f in plugin.glob("agents/*.md")),
        "commands": sorted(f.stem for f in plugin.glob("commands/*.md")),
        "hooks": sorted(events),
        "mcp": sorted(plugin_mcp_servers(plugin)),
    }


def plugin_mcp_servers(plugin: Path) -> dict[str, Any]:
    """A plugin's MCP servers (`.mcp.json`, `{"mcpServers": ...}` or the servers at its top, or
    the manifest's `mcpServers`: inline or a path), `${CLAUDE_PLUGIN_ROOT}` made the folder's path."""
    manifest = _json(plugin / ".claude-plugin" / "plugin.json")
    given = manifest.get("mcpServers") if isinstance(manifest, dict) else None
    data = _json(plugin / given) if isinstance(given, str) else given
    if data is None:
        data = _json(plugin / ".mcp.json")
    servers = data.get("mcpServers", data) if isinstance(data, dict) else {}
    text = json.dumps(servers if isinstance(servers, dict) else {})
    return dict(json.loads(text.replace("${CLAUDE_PLUGIN_ROOT}", str(plugin))))


def agent_placements(arm: Arm, user_memory: str | None, *, plugin_skills: bool = False) -> list[Placement]:
    """The arm's files as a CLI other than Claude Code reads them: a CLAUDE.md into the workspace
    (@user: at user_memory in HOME, where the CLI keeps its user rules; None: the adapter writes
    it itself), skill folders into `~/.agents/skills`, and with plugin_skills a plugin's own
    skills there too (a CLI that cannot load the plugin itself)."""
    out: list[Placement] = []
    for part in arm.parts:
        if part.path is None:
            continue
        if part.kind == "claude-md" and part.scope == "user":
            if user_memory is not None:
                out.append(Placement(part.path, HOME, user_memory))
        elif part.kind == "claude-md":
            out.append(Placement(part.path, WORKSPACE, "CLAUDE.md"))
        elif part.kind == "skills":
            one = (part.path / "SKILL.md").is_file()
            folders = [part.path] if one else [part.path / n for n in part.names]
            out += [Placement(f, HOME, f"{AGENT_SKILLS}/{f.name}", part.apart) for f in folders]
        elif part.kind == "plugin" and plugin_skills:
            for name in plugin_brings(part.path)["skills"]:
                out.append(Placement(part.path / "skills" / name, HOME, f"{AGENT_SKILLS}/{name}", part.apart))
    return out


def lay_arm(
    arm: Arm, workspace: Path, home: Path, placements: list[Placement] | None = None
) -> dict[str, str]:
    """Copy the arm's placements (claude's, or those given); return {relpath: sha256} of the
    files laid into the workspace (they join the seeded base, so they never count as the
    agent's work)."""
    laid: dict[str, str] = {}
    for place in arm.placements() if placements is None else placements:
        root = workspace if place.root == WORKSPACE else home
        dest = root / place.dest
        if place.root == WORKSPACE and dest.exists():
            # The plan refuses such a task for such an arm; a file seen here came from elsewhere.
            raise RuntimeError(
                f"the workspace already holds {place.dest}; the arm {arm.name!r} would replace it"
            )
        dest.parent.mkdir(parents=True, exist_ok=True)
        if place.source.is_dir():
            shutil.copytree(place.source, dest, symlinks=True, ignore=_ignored(place.apart))
        else:
            shutil.copyfile(place.source, dest)
        if place.root == WORKSPACE:
            files = [dest] if dest.is_file() else sorted(p for p in dest.rglob("*") if p.is_file())
            for f in files:
                laid[f.relative_to(workspace).as_posix()] = hashlib.sha256(f.read_bytes()).hexdigest()
    return laid


# (pid, kind, source folder, apart) -> its copy: made once per process (a forked worker makes its own).
_COPIES: dict[tuple[int, str, str, tuple[Path, ...]], Path] = {}


def copy_folder(source: Path, dest: Path, apart: tuple[Path, ...] = ()) -> None:
    """source's content (`armparts.content_files`) into dest: a link copied as the link, never
    followed; refused (RuntimeError) when it changed since the plan checked it."""
    if problem := copy_problems(source, apart):
        raise RuntimeError(problem)
    dest.mkdir(parents=True)
    for path in content_files(source, apart):
        target = dest / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink():
            os.symlink(os.readlink(path), target)
        else:
            shutil.copy2(path, target, follow_symlinks=False)


def _copy_of(kind: str, source: Path, apart: tuple[Path, ...]) -> Path:
    key = (os.getpid(), kind, str(source), apart)
    found = _COPIES.get(key)
    if found is not None and found.is_dir():
        return found
    # The folder's own name is kept (a plugin's hooks and an MCP config may name it).
    dest = session_dir() / "arms" / f"{kind}-{uuid.uuid4().hex[:8]}" / source.name
    if not source.is_dir():
        # Gone since the plan checked it: the cell gets a path that is not there either, and
        # the CLI reports the plugin it could not load (the cell is invalid, with its reason).
        return dest
    copy_folder(source, dest, apart)
    _COPIES[key] = dest
    return dest


def _moved(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str) and (value == old or value.startswith(old + "/")):
        return new + value[len(old) :]
    if isinstance(value, list):
        return [_moved(v, old, new) for v in value]
    return value


def _sealed_part(part: Part) -> Part:
    if part.path is None:
        return part
    if part.kind == "plugin":
        return replace(part, path=_copy_of("plugin", part.path, part.apart))
    if part.kind == "mcp":
        folder = part.path.parent
        copy = _copy_of("mcp", folder, ())
        config = json.loads(part.text or "{}")
        for server in config.get("mcpServers", {}).values():
            for key in ("command", "args"):
                if key in server:
                    server[key] = _moved(server[key], str(folder), str(copy))
        return replace(part, path=copy / part.path.name, text=json.dumps(config, sort_keys=True))
    return part


def sealed(arm: Arm) -> Arm:
    """The arm as a cell runs it: each plugin folder and MCP config folder replaced by a copy of
    its content in this process's scratch (bound read-only), the MCP config's paths moved into
    the copy. Its hash is still computed from the original (the cell's `arm`)."""
    if not any(p.kind in ("plugin", "mcp") for p in arm.parts):
        return arm
    return replace(arm, parts=tuple(_sealed_part(p) for p in arm.parts))
