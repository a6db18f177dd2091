"""Every deterministic grader type on recorded streams and real folders (no claude): regexes on the
reply, the transcript and files, tool calls used, absent and in order, files that exist or not;
good and bad inputs, empty replies, failed calls, unicode. What they read is test_evidence's, the
cell's grade from them test_cell's."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from pytest_ponybench.core.graders import evidence
from pytest_ponybench.core.graders.deterministic import (
    CallMatch,
    FileAbsentGrader,
    FileExistsGrader,
    InputMatch,
    RegexGrader,
    ToolAbsentGrader,
    ToolOrderGrader,
    ToolUsedGrader,
)
from pytest_ponybench.core.graders.evidence import CellEvidence, ToolCall, WorkspaceFiles
from pytest_ponybench.gateway import log as gateway_log
from tests.unit._support.evidence import (
    CTX,
    answered,
    assistant,
    calls,
    evidence_of,
    result,
    text,
    use,
)

# ---------------------------------------------------------------- regex


def regex(**kw: Any) -> RegexGrader:
    pattern = kw.pop("pattern", "hello")
    flags = kw.pop("flags", 0)
    return RegexGrader(name="r", pattern=re.compile(pattern, flags), **kw)


def test_regex_contains_on_the_reply() -> None:
    assert regex().grade(CellEvidence(reply="well hello there"), CTX).passed
    missed = regex().grade(CellEvidence(reply="goodbye"), CTX)
    assert missed.passed is False and "does not contain 'hello'" in missed.explanation


def test_regex_on_an_empty_reply_says_it_is_empty() -> None:
    out = regex().grade(CellEvidence(reply=""), CTX)
    assert out.passed is False and "the reply is empty" in out.explanation
    assert regex(mode="not_contains").grade(CellEvidence(reply=""), CTX).passed
    assert regex(mode="count", max=0).grade(CellEvidence(reply=""), CTX).passed


def test_regex_reads_what_the_gateway_saw() -> None:
    """model_input is what reached the model (a hook's context among it), model_output what it
    answered; a log read back gives both."""
    lines: list[dict[str, Any]] = [
        {
            "request": {
                "system": [{"type": "text", "text": "You are Claude Code."}],
                "messages": [
                    {"role": "user", "content": [{"type": "text", "text": "Fix it. <ctx>REVIEW-HOOK</ctx>"}]}
                ],
            },
            "response": [{"type": "tool_use", "name": "Write", "input": {"file_path": "/w/a.py"}}],
        },
        {"request": {"system": [{"type": "text", "text": "You are Claude Code."}], "messages": []}},
    ]
    view = gateway_log.model_view(lines)
    assert view.input.count("You are Claude Code.") == 1 and "REVIEW-HOOK" in view.input
    assert view.output == 'Write {"file_path": "/w/a.py"}'
    ev = CellEvidence(reply="done", model_input=view.input, model_output=view.output)
    seen = regex(target="model_input", pattern="REVIEW-HOOK").grade(ev, CTX)
    assert seen.passed and seen.explanation.startswith("model_input contains")
    asked = regex(target="model_output", pattern=r"^Write \{.*a\.py", flags=re.M).grade(ev, CTX)
    assert asked.passed
    empty = regex(target="model_input").grade(CellEvidence(reply="hello"), CTX)
    assert empty.passed is False and "the model_input is empty" in empty.explanation


def test_regex_not_contains_shows_where() -> None:
    out = regex(mode="not_contains", pattern="TODO").grade(CellEvidence(reply="x\nTODO: fix"), CTX)
    assert out.passed is False and "'x\\nTODO: fix'" in out.explanation and "character 2" in out.explanation


def test_regex_count_bounds() -> None:
    ev = CellEvidence(reply="one two three four")
    words = {"pattern": r"\S+", "mode": "count"}
    assert regex(**words, max=4).grade(ev, CTX).passed
    assert not regex(**words, max=3).grade(ev, CTX).passed
    assert regex(**words, min=4, max=4).grade(ev, CTX).passed
    out = regex(**words, min=5).grade(ev, CTX)
    assert out.passed is False and out.explanation.startswith("4 match(es)") and "min 5" in out.explanation


def test_regex_flags_and_unicode() -> None:
    ev = CellEvidence(reply="Grüße\nZÜRICH")
    assert regex(pattern="^zürich$", flags=re.I | re.M).grade(ev, CTX).passed
    assert not regex(pattern="^zürich$").grade(ev, CTX).passed
    assert regex(pattern=r"Grüße.ZÜRICH", flags=re.S).grade(ev, CTX).passed


def test_regex_on_the_transcript() -> None:
    ev = evidence_of([assistant(text("I will read the tests first")), result("done")])
    assert regex(target="transcript", pattern="tests first").grade(ev, CTX).passed
    assert not regex(target="reply", pattern="tests first").grade(ev, CTX).passed


def make_workspace(root: Path, files: dict[str, bytes | str]) -> WorkspaceFiles:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode() if isinstance(data, str) else data)
    return WorkspaceFiles(root)


def test_regex_over_files_with_a_glob(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "app.py": "print('debug')\n",
            "lib/util.py": "x = 1\n",
            "notes.md": "print(",
            ".git/config": "print(",
        },
    )
    ev = CellEvidence(workspace=ws)
    prints = regex(target="files", glob="**/*.py", pattern=r"^\s*print\(", flags=re.M)
    out = prints.grade(ev, CTX)
    assert out.passed and "in app.py line 1" in out.explanation
    assert not regex(target="files", glob="lib/*.py", pattern="print").grade(ev, CTX).passed
    count = regex(target="files", glob="**/*", pattern=r"print\(", mode="count", min=2, max=2)
    assert count.grade(ev, CTX).passed  # app.py and notes.md; .git is not the agent's work
    none = regex(target="files", glob="*.rs", pattern="x").grade(ev, CTX)
    assert none.passed is False and "no file matches '*.rs'" in none.explanation


def test_regex_over_binary_and_non_utf8_files(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path, {"blob.bin": b"\x00\xff\xfe magic \x80", "latin.txt": "caf\xe9".encode("latin-1")}
    )
    ev = CellEvidence(workspace=ws)
    assert regex(target="files", pattern="magic").grade(ev, CTX).passed
    assert regex(target="files", glob="latin.txt", pattern="caf\ufffd").grade(ev, CTX).passed


def test_files_are_read_without_following_symlinks(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("top secret")
    ws_dir = tmp_path / "ws"
    ws = make_workspace(ws_dir, {"real.txt": "visible"})
    os.symlink(outside / "secret.txt", ws_dir / "link.txt")
    os.symlink(outside, ws_dir / "linkdir")
    ev = CellEvidence(workspace=WorkspaceFiles(ws_dir))
    assert not regex(target="files", pattern="top secret").grade(ev, CTX).passed
    assert ws.read("link.txt") is None
    kinds = {e.path: e.kind for e in WorkspaceFiles(ws_dir).entries()}
    assert kinds == {"real.txt": "file", "link.txt": "link", "linkdir": "link"}


def test_files_target_without_a_workspace_cannot_decide() -> None:
    out = regex(target="files").grade(CellEvidence(reply="x"), CTX)
    assert out.passed is None and out.error


# ---------------------------------------------------------------- tool calls


def match(tools: str | tuple[str, ...], path: str | None = None, rx: str = "") -> CallMatch:
    names = (tools,) if isinstance(tools, str) else tools
    return CallMatch(tools=names, input=InputMatch(path=path, regex=re.compile(rx)) if path else None)


SESSION = calls(
    ("Glob", {"pattern": "tests/*.py"}),
    ("Read", {"file_path": "/ws/tests/test_app.py"}),
    ("Read", {"file_path": "/ws/app.py"}),
    ("Edit", {"file_path": "/ws/app.py", "old_string": "a", "new_string": "b"}),
    ("mcp__notes__search", {"query": "déjà vu", "filters": {"tags": ["x", "y"]}}),
    ("Skill", {"skill": "careful:careful-review"}),
)


def test_tool_used_by_name_glob_list_and_input() -> None:
    assert ToolUsedGrader(name="t", match=match("Read")).grade(SESSION, CTX).passed
    assert ToolUsedGrader(name="t", match=match("mcp__notes__*")).grade(SESSION, CTX).passed
    assert ToolUsedGrader(name="t", match=match(("Write", "Edit"))).grade(SESSION, CTX).passed
    assert not ToolUsedGrader(name="t", match=match("Write")).grade(SESSION, CTX).passed
    tests = ToolUsedGrader(name="t", match=match("Read", "file_path", r"/tests/"))
    out = tests.grade(SESSION, CTX)
    assert out.passed and "#1 Read /ws/tests/test_app.py" in out.explanation
    skill = ToolUsedGrader(name="t", match=match("Skill", "skill", r"(^|:)careful-review$"))
    assert skill.grade(SESSION, CTX).passed


def test_tool_used_input_paths_into_nested_values_and_unicode() -> None:
    nested = ToolUsedGrader(name="t", match=match("mcp__notes__search", "filters.tags.1", "^y$"))
    assert nested.grade(SESSION, CTX).passed
    whole = ToolUsedGrader(name="t", match=match("mcp__notes__search", "filters", r'"tags": \["x"'))
    assert whole.grade(SESSION, CTX).passed  # a non-string value is matched as its JSON
    assert ToolUsedGrader(name="t", match=match("mcp__*", "query", "^déjà")).grade(SESSION, CTX).passed
    missing = ToolUsedGrader(name="t", match=match("mcp__notes__search", "filters.tags.7", "."))
    assert not missing.grade(SESSION, CTX).passed


def test_tool_used_min_and_max() -> None:
    reads = match("Read")
    assert ToolUsedGrader(name="t", match=reads, min=2, max=2).grade(SESSION, CTX).passed
    assert not ToolUsedGrader(name="t", match=reads, min=3).grade(SESSION, CTX).passed
    out = ToolUsedGrader(name="t", match=reads, min=0, max=1).grade(SESSION, CTX)
    assert out.passed is False and out.explanation.startswith("2 successful call(s) of Read (min 0, max 1)")


def test_an_input_match_notes_calls_whose_input_did_not_parse() -> None:
    ev = calls(("Read", "not json"), ("Read", {"file_path": "/ws/a.py"}))
    out = ToolUsedGrader(name="t", match=match("Read", "file_path", "b.py")).grade(ev, CTX)
    assert out.passed is False and "1 call(s) of Read had an input that did not parse" in out.explanation
    # without an input match they still count as calls of the tool
    assert ToolUsedGrader(name="t", match=match("Read"), min=2).grade(ev, CTX).passed


def test_tool_absent() -> None:
    assert ToolAbsentGrader(name="t", match=match("Bash")).grade(SESSION, CTX).passed
    edit_tests = ToolAbsentGrader(name="t", match=match(("Write", "Edit"), "file_path", "/tests/"))
    assert edit_tests.grade(SESSION, CTX).passed
    out = ToolAbsentGrader(name="t", match=match("Edit")).grade(SESSION, CTX)
    assert out.passed is False and "#3 Edit /ws/app.py" in out.explanation


def test_tool_order_is_a_subsequence() -> None:
    read_then_edit = ToolOrderGrader(
        name="t", steps=(match("Read", "file_path", "tests/"), match("Edit", "file_path", r"app\.py$"))
    )
    out = read_then_edit.grade(SESSION, CTX)
    assert out.passed and out.explanation == "in order: #1 Read /ws/tests/test_app.py; #3 Edit /ws/app.py"
    three = ToolOrderGrader(name="t", steps=(match("Glob"), match("Edit"), match("Skill")))
    assert three.grade(SESSION, CTX).passed


def test_tool_order_out_of_order_or_missing_says_which_step() -> None:
    backwards = ToolOrderGrader(name="t", steps=(match("Edit"), match("Read", "file_path", "tests/")))
    out = backwards.grade(SESSION, CTX)
    assert out.passed is False
    assert "step 2 of 2, Read with file_path ~ 'tests/', has no successful call after #3" in out.explanation
    assert "it happens only before: #1 Read" in out.explanation
    missing = ToolOrderGrader(name="t", steps=(match("Write"), match("Edit"))).grade(SESSION, CTX)
    assert missing.passed is False and "step 1 of 2, Write, has no successful call" in missing.explanation
    same_call_twice = ToolOrderGrader(name="t", steps=(match("Edit"), match("Edit"))).grade(SESSION, CTX)
    assert same_call_twice.passed is False  # one call cannot stand for two steps


def test_tool_graders_on_a_session_with_no_calls() -> None:
    empty = CellEvidence(reply="")
    assert not ToolUsedGrader(name="t", match=match("Read")).grade(empty, CTX).passed
    assert ToolAbsentGrader(name="t", match=match("Read")).grade(empty, CTX).passed
    assert not ToolOrderGrader(name="t", steps=(match("Read"), match("Edit"))).grade(empty, CTX).passed


# A baseline session that called a skill it does not have: the CLI answered with an error.
UNKNOWN_SKILL = "<tool_use_error>Unknown skill: careful:careful-review</tool_use_error>"
FAILED_SKILL = evidence_of(
    [
        assistant(use("Read", {"file_path": "/ws/app.py"}, "toolu_0"), msg="a"),
        answered("toolu_0", "x = 1"),
        assistant(use("Skill", {"skill": "careful:careful-review"}, "toolu_1"), msg="b"),
        answered("toolu_1", UNKNOWN_SKILL, is_error=True),
        assistant(use("Edit", {"file_path": "/ws/app.py", "old_string": "1", "new_string": "2"}, "toolu_2")),
        result("Done."),  # the Edit's result never came: the session ended first
    ]
)
SKILL = match("Skill", "skill", r"(^|:)careful-review$")


def test_a_failed_call_is_not_a_use_and_the_explanation_names_it() -> None:
    used = ToolUsedGrader(name="t", match=SKILL).grade(FAILED_SKILL, CTX)
    assert used.passed is False
    assert used.explanation == (
        "0 successful call(s) of Skill with skill ~ '(^|:)careful-review$' (min 1); 1 failed call(s) not "
        "counted: #1 Skill careful:careful-review (<tool_use_error>Unknown skill: careful:careful-review"
        "</tool_use_error>)"
    )
    absent = ToolAbsentGrader(name="t", match=SKILL).grade(FAILED_SKILL, CTX)
    assert absent.passed is True
    assert absent.explanation.startswith("no successful call of Skill with skill ~ ")
    assert "1 failed call(s) not counted: #1 Skill careful:careful-review" in absent.explanation
    # A call whose result never came did not succeed either.
    edit = ToolUsedGrader(name="t", match=match("Edit")).grade(FAILED_SKILL, CTX)
    assert edit.passed is False and "#2 Edit /ws/app.py (no result)" in edit.explanation


def test_count_attempts_counts_failed_calls_and_says_so() -> None:
    used = ToolUsedGrader(name="t", match=SKILL, count="attempts").grade(FAILED_SKILL, CTX)
    assert used.passed is True
    assert used.explanation.startswith(
        "1 call(s) of Skill with skill ~ '(^|:)careful-review$' (min 1; attempts: failed calls counted): "
        "#1 Skill careful:careful-review"
    )
    absent = ToolAbsentGrader(name="t", match=SKILL, count="attempts").grade(FAILED_SKILL, CTX)
    assert absent.passed is False and "(attempts: failed calls counted), which must not happen" in (
        absent.explanation
    )
    steps = (match("Read"), SKILL, match("Edit"))
    assert ToolOrderGrader(name="t", steps=steps, count="attempts").grade(FAILED_SKILL, CTX).passed
    order = ToolOrderGrader(name="t", steps=steps).grade(FAILED_SKILL, CTX)
    assert order.passed is False
    assert order.explanation.startswith(
        "step 2 of 3, Skill with skill ~ '(^|:)careful-review$', has no successful call after #0 "
    )
    assert "1 failed call(s) not counted: #1 Skill careful:careful-review" in order.explanation
    # Over the succeeded calls alone, Read then Edit is still not in order: the Edit never answered.
    assert not ToolOrderGrader(name="t", steps=(match("Read"), match("Edit"))).grade(FAILED_SKILL, CTX).passed


# ---------------------------------------------------------------- files


def test_file_exists_and_absent(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, {"tests/test_slug_extra.py": "", "docs/guide.md": "", ".git/HEAD": ""})
    ev = CellEvidence(workspace=ws)
    assert FileExistsGrader(name="f", path="tests/test_slug_*.py").grade(ev, CTX).passed
    assert FileExistsGrader(name="f", path="docs").grade(ev, CTX).passed  # a folder counts
    assert not FileExistsGrader(name="f", path="*.orig").grade(ev, CTX).passed
    gone = FileAbsentGrader(name="f", path="**/*.md").grade(ev, CTX)
    assert gone.passed is False and "docs/guide.md" in gone.explanation
    assert FileAbsentGrader(name="f", path=".git/*").grade(ev, CTX).passed  # the harness's, not the agent's
    assert FileExistsGrader(name="f", path="x").describe() == {
        "arm": "all",
        "axis": "score",
        "name": "f",
        "path": "x",
        "type": "file_exists",
        "weight": 1.0,
    }


def test_file_graders_on_an_empty_workspace(tmp_path: Path) -> None:
    ev = CellEvidence(workspace=WorkspaceFiles(tmp_path))
    assert FileAbsentGrader(name="f", path="**/*").grade(ev, CTX).passed
    assert not FileExistsGrader(name="f", path="**/*").grade(ev, CTX).passed
    assert FileExistsGrader(name="f", path="a").grade(CellEvidence(), CTX).passed is None


def test_tool_call_text_marks_subagents_and_redacts() -> None:
    ev = evidence_of([assistant(use("Read", {"file_path": "/ws/sk-ant-api03-" + "B" * 30}), parent="t1")])
    out = ToolUsedGrader(name="t", match=match("Read")).grade(ev, CTX)
    assert "[subagent]" in out.explanation and "sk-ant" not in out.explanation
    assert evidence.call_record(ToolCall(0, "Read", None, raw="x")) == {
        "tool": "Read",
        "input": None,
        "raw": "x",
    }
