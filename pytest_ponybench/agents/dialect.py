"""Tool dialects: each CLI's names for the tools the offline agents call.

The offline server reads which CLI it serves from the tools a request offers (`dialect_of`), so
one scripted agent writes a task's reference through Claude Code's `Write`/`Edit` or through
another CLI's own tools. Pure data: the offline wing reads it, each adapter names its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["CLAUDE", "DIALECTS", "Dialect", "dialect_of"]


@dataclass(frozen=True)
class Dialect:
    """A CLI's names for the tools the offline agents use. `create_only` marks a CLI whose
    create tool fails on an existing file (an overwrite must then be an edit of the whole
    content)."""

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


CLAUDE = Dialect()
# agent name -> its dialect; a request is matched against each in this order.
DIALECTS: dict[str, Dialect] = {"claude": CLAUDE}


def dialect_of(offered: Iterable[object]) -> Dialect:
    """The dialect whose write and edit tools a request offers; claude's when none matches."""
    names = {n for n in offered if isinstance(n, str)}
    for dialect in DIALECTS.values():
        if dialect.write in names and dialect.edit in names:
            return dialect
    return CLAUDE
