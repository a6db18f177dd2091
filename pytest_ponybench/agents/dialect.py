"""Tool dialects: each CLI's names for the tools the offline agents call.

The offline server reads which CLI it serves from the tools a request offers (`dialect_of`), so
one scripted agent writes a task's reference through Claude Code's `Write`/`Edit` or through
another CLI's own tools. Pure data: the offline wing reads it, each adapter finds its own by name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["CLAUDE", "CODEX", "COPILOT", "DIALECTS", "Dialect", "OPENCODE", "dialect_of"]


@dataclass(frozen=True)
class Dialect:
    """A CLI's names for the tools the offline agents use, and for what a pre-flight looks for.
    `create_only` marks a CLI whose create tool fails on an existing file (an overwrite must then
    be an edit of the whole content)."""

    write: str = "Write"
    write_path: str = "file_path"
    write_content: str = "content"
    edit: str = "Edit"
    edit_path: str = "file_path"
    edit_old: str = "old_string"
    edit_new: str = "new_string"
    read: str = "Read"
    read_path: str = "file_path"
    skill: str = "Skill"
    skill_name: str = "skill"
    create_only: bool = False
    # How the CLI names an MCP server's tools ({server} is the server's name) and which of a
    # Claude Code plugin's components its start event lists as `plugin:name`.
    mcp_prefix: str = "mcp__{server}__"
    plugin_lists: tuple[str, ...] = ("skills", "agents", "commands")
    # Where a hook's JSON answer puts what reaches the model: claude reads
    # hookSpecificOutput.additionalContext, Copilot CLI the top-level additionalContext.
    hook_context_top: bool = False
    # Its one edit tool takes a patch (Codex's freeform apply_patch): a file is written as a
    # patch that adds it (deleting it first when it exists); no read tool.
    patch: bool = False

    def call(self, tool: str, given: dict[str, object]) -> tuple[str, dict[str, object]]:
        """A call written in Claude Code's names (a reference's declared `Read`, `Write`, `Edit`,
        `Skill`) in this CLI's names; any other call as it is."""
        keys = {
            "Read": (self.read, {"file_path": self.read_path}),
            "Write": (self.write, {"file_path": self.write_path, "content": self.write_content}),
            "Edit": (
                self.edit,
                {"file_path": self.edit_path, "old_string": self.edit_old, "new_string": self.edit_new},
            ),
            "Skill": (self.skill, {"skill": self.skill_name}),
        }
        if tool not in keys:
            return tool, given
        name, renamed = keys[tool]
        return name, {renamed.get(k, k): v for k, v in given.items()}


CLAUDE = Dialect()
# OpenCode 1.18: lower-case tools, camelCase keys.
OPENCODE = Dialect(
    write="write",
    write_path="filePath",
    write_content="content",
    edit="edit",
    edit_path="filePath",
    edit_old="oldString",
    edit_new="newString",
    read="read",
    read_path="filePath",
    skill="skill",
    skill_name="name",
    mcp_prefix="{server}_",
    plugin_lists=(),  # it loads no Claude Code plugin: the harness lays a plugin's skills
)
# Copilot CLI 1.0: `create` refuses a path that exists, so an overwrite is an `edit` of the whole
# content (an empty `old_str` edits an empty file).
COPILOT = Dialect(
    write="create",
    write_path="path",
    write_content="file_text",
    edit="edit",
    edit_path="path",
    edit_old="old_str",
    edit_new="new_str",
    read="view",
    read_path="path",
    skill="skill",
    skill_name="skill",
    create_only=True,
    mcp_prefix="{server}-",
    plugin_lists=("skills",),
    hook_context_top=True,
)
# Codex 0.171: the freeform apply_patch tool alone (its shell is denied every session).
CODEX = Dialect(
    write="apply_patch",
    write_path="path",
    write_content="patch",
    edit="apply_patch",
    edit_path="path",
    edit_old="",
    edit_new="",
    read="",
    skill="",
    skill_name="",
    mcp_prefix="mcp__{server}__",
    plugin_lists=(),
    patch=True,
)
# agent name -> its dialect; a request is matched against each in this order.
DIALECTS: dict[str, Dialect] = {"claude": CLAUDE, "opencode": OPENCODE, "copilot": COPILOT, "codex": CODEX}


def dialect_of(offered: Iterable[object]) -> Dialect:
    """The dialect whose write and edit tools a request offers; claude's when none matches."""
    names = {n for n in offered if isinstance(n, str)}
    for dialect in DIALECTS.values():
        if dialect.write in names and dialect.edit in names:
            return dialect
    return CLAUDE
