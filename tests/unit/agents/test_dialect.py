"""Tests for `agents/dialect.py`: each CLI's names for the tools the offline agents call, the
dialect a request's offered tools speak, and a call in Claude Code's names said in another's."""

from __future__ import annotations

import pytest

from pytest_ponybench.agents import registry
from pytest_ponybench.agents.dialect import CLAUDE, CODEX, COPILOT, DIALECTS, OPENCODE, Dialect, dialect_of


def test_every_agent_has_a_dialect() -> None:
    assert sorted(DIALECTS) == registry.names()


@pytest.mark.parametrize(
    ("offered", "dialect"),
    [
        (["Read", "Write", "Edit", "Bash"], CLAUDE),
        (["read", "write", "edit", "skill"], OPENCODE),
        (["view", "create", "edit", "skill"], COPILOT),
        (["apply_patch"], CODEX),
        (["view", "create"], CLAUDE),  # a create without an edit: not Copilot's, claude's by default
        ([], CLAUDE),
        ([None, 3, {"name": "Write"}], CLAUDE),  # what is not a name is not read
    ],
)
def test_the_dialect_is_the_one_whose_write_and_edit_are_offered(
    offered: list[object], dialect: Dialect
) -> None:
    assert dialect_of(offered) is dialect


def test_a_claude_call_in_each_dialect() -> None:
    write: dict[str, object] = {"file_path": "a.py", "content": "x = 1\n"}
    assert CLAUDE.call("Write", write) == ("Write", write)
    assert OPENCODE.call("Write", write) == ("write", {"filePath": "a.py", "content": "x = 1\n"})
    assert COPILOT.call("Write", write) == ("create", {"path": "a.py", "file_text": "x = 1\n"})
    edit: dict[str, object] = {"file_path": "a.py", "old_string": "1", "new_string": "2"}
    assert COPILOT.call("Edit", edit) == ("edit", {"path": "a.py", "old_str": "1", "new_str": "2"})
    assert OPENCODE.call("Read", {"file_path": "a.py"}) == ("read", {"filePath": "a.py"})
    assert OPENCODE.call("Skill", {"skill": "careful:review"}) == ("skill", {"name": "careful:review"})
    assert COPILOT.call("Bash", {"command": "ls"}) == ("Bash", {"command": "ls"})  # any other call as it is
    assert OPENCODE.call("Write", {"file_path": "a.py", "mode": "w"})[1] == {"filePath": "a.py", "mode": "w"}


def test_what_only_some_clis_do() -> None:
    assert [d.create_only for d in (CLAUDE, OPENCODE, COPILOT, CODEX)] == [False, False, True, False]
    assert [d.patch for d in (CLAUDE, OPENCODE, COPILOT, CODEX)] == [False, False, False, True]
    assert [d.hook_context_top for d in (CLAUDE, OPENCODE, COPILOT, CODEX)] == [False, False, True, False]
    assert [d.mcp_prefix.format(server="notes") for d in (CLAUDE, OPENCODE, COPILOT)] == [
        "mcp__notes__",
        "notes_",
        "notes-",
    ]
