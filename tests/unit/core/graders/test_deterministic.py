"""Every grader type on recorded streams and real folders (no claude): good and bad inputs,
empty replies, tool inputs that do not parse, unicode, huge transcripts; the cell's score, its
axes and its record fields."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.agents import claude_stream, streamread
from pytest_ponybench.core.graders import cell, evidence
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
from pytest_ponybench.core.graders.evidence import CellEvidence, ToolCall, WorkspaceFiles, compile_glob
from pytest_ponybench.core.graders.outcome import GradeContext, GraderOutcome, JudgeRun
from pytest_ponybench.core.records import Record, loaded
from pytest_ponybench.gateway import log as gateway_log
from pytest_ponybench.scoring.checks import Check, Score
from pytest_ponybench.scoring.hidden_checks import outcome_of
from tests.support import transcript_of

CTX = GradeContext()


def evidence_of(lines: list[str], workspace: Path | None = None) -> CellEvidence:
    """What graders read of these stream lines, through claude's adapter as a cell reads them."""
    return CellEvidence.from_transcript(transcript_of(lines), workspace)


def stream_evidence(path: Path) -> CellEvidence:
    return CellEvidence.from_transcript(claude_stream.parse(path))


def assistant(*blocks: dict[str, Any], parent: str | None = None, msg: str = "m") -> str:
    return json.dumps(
        {"type": "assistant", "parent_tool_use_id": parent, "message": {"id": msg, "content": list(blocks)}}
    )


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def use(name: str, given: Any, id_: str = "") -> dict[str, Any]:
    return {"type": "tool_use", "id": id_, "name": name, "input": given}


def result(reply: str) -> str:
    return json.dumps({"type": "result", "subtype": "success", "result": reply})


def answered(id_: str, content: str = "ok", is_error: bool = False) -> str:
    """The CLI's answer to a tool call, as the stream carries it."""
    block = {"type": "tool_result", "tool_use_id": id_, "content": content, "is_error": is_error}
    return json.dumps({"type": "user", "message": {"role": "user", "content": [block]}})


def calls(*pairs: tuple[str, Any]) -> CellEvidence:
    """A session of these calls, each answered without an error, as the CLI ran them."""
    lines: list[str] = []
    for n, (name, given) in enumerate(pairs):
        lines += [assistant(use(name, given, f"toolu_{n}")), answered(f"toolu_{n}")]
    return evidence_of(lines)


# ---------------------------------------------------------------- evidence


def test_evidence_reads_reply_transcript_and_ordered_calls() -> None:
    lines = [
        json.dumps({"type": "system", "subtype": "init"}),
        assistant(text("Let me look."), msg="a"),
        assistant(use("Read", {"file_path": "/ws/app.py"}, "t1"), msg="a"),
        assistant(use("Grep", {"pattern": "def ", "path": "/ws"}, "t2"), msg="b"),
        assistant(use("Read", {"file_path": "/ws/lib.py"}), parent="t9", msg="c"),
        assistant(text("Done."), msg="d"),
        result("Done: all good."),
    ]
    ev = evidence_of(lines)
    assert ev.reply == "Done: all good."
    assert ev.transcript == "Let me look.\n\nDone."
    assert [(c.index, c.tool, c.subagent) for c in ev.tool_calls] == [
        (0, "Read", False),
        (1, "Grep", False),
        (2, "Read", True),
    ]
    assert ev.tool_calls[0].input == {"file_path": "/ws/app.py"} and ev.notes == ()


def test_without_a_result_event_the_reply_is_the_last_main_agent_text() -> None:
    lines = [assistant(text("first")), assistant(text("from a subagent"), parent="t1"), "not json {"]
    ev = evidence_of(lines)
    assert ev.reply == "first"
    assert "1 stream lines were not JSON objects" in ev.notes


@pytest.mark.parametrize(
    "given, parsed",
    [
        ('{"file_path": "/ws/a.py"}', {"file_path": "/ws/a.py"}),  # an input carried as its JSON text
        ('{"file_path": "/ws/a.py"', None),  # cut mid-object
        ("[1, 2]", None),
        (["a"], None),
        (None, None),
        (42, None),
    ],
)
def test_tool_inputs_that_do_not_parse_are_kept_raw(given: Any, parsed: Any) -> None:
    ev = calls(("Read", given))
    call = ev.tool_calls[0]
    assert call.input == parsed
    if parsed is None:
        assert call.raw  # what it was, for the explanation and the record
        assert evidence.call_record(call)["input"] is None and "raw" in evidence.call_record(call)


def test_a_missing_stream_is_empty_evidence(tmp_path: Path) -> None:
    ev = stream_evidence(tmp_path / "nope.jsonl")
    assert ev.reply == "" and ev.tool_calls == () and ev.transcript == ""


def test_a_huge_transcript_is_cut_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streamread, "TRANSCRIPT_CHARS", 1_000)
    monkeypatch.setattr(evidence, "MAX_CALLS", 10)
    monkeypatch.setattr(streamread, "REPLY_CHARS", 50)
    lines = [assistant(text("é" * 300)) for _ in range(10)] + [assistant(use("Read", {})) for _ in range(25)]
    ev = evidence_of([*lines, result("x" * 80)])
    assert len(ev.transcript) <= 1_000 + 20
    assert len(ev.tool_calls) == 10 and len(ev.reply) == 50
    assert any("transcript was cut" in n for n in ev.notes)
    assert any("15 tool calls" in n for n in ev.notes)
    assert any("reply was cut" in n for n in ev.notes)


def test_an_overlong_stream_line_is_skipped_without_reading_it_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streamread, "MAX_LINE_BYTES", 2_000)
    stream = tmp_path / "claude.jsonl"
    big = assistant(use("Write", {"file_path": "/ws/big.py", "content": "x" * 50_000}))
    stream.write_text("\n".join([assistant(use("Read", {"file_path": "/ws/a"})), big, result("ok")]) + "\n")
    ev = stream_evidence(stream)
    assert [c.tool for c in ev.tool_calls] == ["Read"] and ev.reply == "ok"
    assert any("longer than 2000 bytes were skipped" in n for n in ev.notes)


def test_a_real_size_transcript_is_graded(tmp_path: Path) -> None:
    """40 MB of stream (10,000 turns): read within the bounds, graded, nothing lost that counts."""
    stream = tmp_path / "claude.jsonl"
    with stream.open("w") as out:
        for n in range(10_000):
            out.write(assistant(text(f"step {n} " + "lorem ipsum " * 300), msg=f"m{n}") + "\n")
            out.write(assistant(use("Read", {"file_path": f"/ws/f{n % 7}.py"}, f"t{n}"), msg=f"m{n}") + "\n")
            out.write(answered(f"t{n}") + "\n")
        out.write(result("final answer") + "\n")
    assert stream.stat().st_size > 30_000_000
    ev = stream_evidence(stream)
    assert ev.reply == "final answer" and len(ev.tool_calls) == evidence.MAX_CALLS
    assert len(ev.transcript) <= evidence.TRANSCRIPT_CHARS + 2
    counted = RegexGrader(
        name="steps", target="transcript", pattern=re.compile(r"step \d+"), mode="count", min=1
    )
    outcome = counted.grade(ev, CTX)
    assert outcome.passed and outcome.explanation.startswith("5")  # the first ~550 turns fit
    used = ToolUsedGrader(
        name="f3",
        match=CallMatch(tools=("Read",), input=InputMatch(path="file_path", regex=re.compile(r"f3\.py$"))),
    ).grade(ev, CTX)
    assert used.passed


def test_the_record_copy_is_bounded_and_redacted() -> None:
    key = "sk-ant-api03-" + "A" * 40
    ev = calls(
        ("Write", {"file_path": "/ws/.env", "content": f"ANTHROPIC_API_KEY={key}\n" + "y" * 5_000}),
        ("mcp__notes__add", {"api_key": "hunter2-secret", "note": "hello"}),
    )
    records = ev.record_tool_calls()
    assert key not in json.dumps(records)
    assert "[redacted]" in records[0]["input"]["content"]
    assert len(records[0]["input"]["content"]) < 2_100 and "characters cut" in records[0]["input"]["content"]
    assert records[1]["input"] == {"api_key": "[redacted]", "note": "hello"}
    # what graders read is not redacted: a grader may look for the key itself
    assert key in ev.tool_calls[0].input["content"]  # type: ignore[index]


def test_the_record_keeps_at_most_300_calls_and_counts_the_rest() -> None:
    ev = calls(*[("Read", {"file_path": f"/ws/{n}"}) for n in range(305)])
    kept = ev.record_tool_calls()
    assert len(kept) == 301 and kept[-1] == {"tool": None, "cut": 5}


def test_record_reply_is_cut_and_redacted() -> None:
    ev = CellEvidence(reply="token ghp_" + "a" * 36 + " " + "z" * 20_000)
    kept = ev.record_reply()
    assert "ghp_" not in kept and "[redacted]" in kept and len(kept) < 10_100


@pytest.mark.parametrize(
    "pattern, path, hit",
    [
        ("**/*", "a/b/c.py", True),
        ("**/*.py", "c.py", True),
        ("*.py", "a/c.py", False),
        ("tests/test_*.py", "tests/test_x.py", True),
        ("tests/test_*.py", "tests/sub/test_x.py", False),
        ("src/**/x.py", "src/x.py", True),
        ("src/**/x.py", "src/a/b/x.py", True),
        ("file?.txt", "file1.txt", True),
        ("[!t]*.py", "test.py", False),
        ("[ab].md", "b.md", True),
        ("naïve*.md", "naïve-notes.md", True),
        ("a+b.py", "a+b.py", True),
    ],
)
def test_workspace_globs(pattern: str, path: str, hit: bool) -> None:
    assert bool(compile_glob(pattern).fullmatch(path)) is hit


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


# ---------------------------------------------------------------- the cell


def outcome(
    name: str, passed: bool | None, axis: str = "score", weight: float = 1.0, arm: str = "all"
) -> GraderOutcome:
    return GraderOutcome(name, "regex", axis, weight, arm, passed, 1.0 if passed else 0.0, f"{name} said so")


def test_score_is_the_weighted_share_passed_without_arms_only_graders() -> None:
    outs = [
        outcome("a", True, weight=3),
        outcome("b", False),
        outcome("c", None),  # undecided: not passed
        outcome("fired", True, arm="arms-only", weight=100),
    ]
    assert cell.cell_score(outs) == pytest.approx(3 / 5)
    assert cell.cell_score([outcome("fired", True, arm="arms-only")]) is None
    assert cell.cell_score([]) is None


def test_axes_need_their_checks_and_every_grader_on_them() -> None:
    outs = [
        outcome("explains", False, axis="correct"),
        outcome("style", False),
        outcome("fired", False, arm="arms-only"),
    ]
    axes = cell.combine_axes(True, True, outs)
    assert (axes.correct, axes.safe) == (False, True)
    assert axes.reason == "incorrect: grader explains (regex) failed: explains said so"
    assert cell.combine_axes(False, True, [outcome("x", True, axis="correct")]).correct is False
    undecided = cell.combine_axes(True, True, [outcome("judge", None, axis="safe")])
    assert undecided.safe is False and "could not decide" in undecided.reason
    assert undecided.as_record("checks said") == {
        "correct": True,
        "safe": False,
        "reason": "checks said; unsafe: grader judge (regex) could not decide: judge said so",
    }


def test_grading_error_names_the_undecided_grader() -> None:
    assert cell.grading_error([outcome("a", True)]) is None
    assert cell.grading_error([outcome("a", None, arm="arms-only")]) is None
    assert cell.grading_error([outcome("a", True), outcome("j", None)]) == "grader j (regex): j said so"


def test_record_fields() -> None:
    ev = calls(("Read", {"file_path": "/ws/a.py"}))
    judged = GraderOutcome(
        "j",
        "llm",
        "correct",
        1.0,
        "all",
        True,
        1.0,
        "fine",
        cost_usd=0.002,
        input_tokens=100,
        output_tokens=7,
        runs=(JudgeRun("pass", True, "fine", cost_usd=0.002, input_tokens=100, output_tokens=7),),
        agreement=1.0,
    )
    fields = cell.record_fields(ev, [judged, outcome("r", False)])
    assert fields["score"] == 0.5 and fields["judge_cost_usd"] == 0.002
    assert (fields["judge_input_tokens"], fields["judge_output_tokens"]) == (100, 7)
    assert fields["tool_calls"] == [{"tool": "Read", "input": {"file_path": "/ws/a.py"}}]
    assert fields["graders"][0]["runs"][0]["answer"] == "pass" and "runs" not in fields["graders"][1]
    json.dumps(fields)  # a record is JSON


def test_an_outcome_score_outside_zero_one_is_refused() -> None:
    for bad in (1.5, -0.1, math.nan):
        with pytest.raises(ValueError):
            GraderOutcome("x", "regex", "score", 1.0, "all", True, bad, "")


def test_outcomes_read_back_from_a_record_even_when_mangled() -> None:
    rec = loaded(
        {
            "graders": [
                {"name": "a", "passed": True, "score": 1, "weight": "heavy"},
                {"passed": "yes", "score": math.inf},
                3,
            ]
        }
    )
    back = cell.outcomes_of(rec)
    assert [(o.name, o.passed, o.score, o.weight) for o in back] == [
        ("a", True, 1.0, 1.0),
        ("?", None, 0.0, 1.0),
    ]
    assert cell.outcomes_of({}) == []


def test_self_agreement_over_cells_judged_more_than_once() -> None:
    def judged(agreement: float, runs: int) -> dict[str, Any]:
        return {"name": "tone", "agreement": agreement, "runs": [{"run": k} for k in range(runs)]}

    records: list[Record] = [
        {"graders": [judged(1.0, 3)]},
        {"graders": [judged(2 / 3, 3)]},
        {"graders": [judged(1.0, 1)]},  # one run: nothing to agree with
        {
            "graders": [
                {
                    "name": "ref",
                    "agreement": 1.0,
                    "runs": [{"run": 0, "order": "a"}, {"run": 0, "order": "b"}],
                }
            ]
        },
    ]
    (only,) = cell.self_agreement(records)
    assert (only.grader, only.cells, only.unanimous) == ("tone", 2, 1)
    assert only.mean == pytest.approx(5 / 6)


def test_hidden_checks_as_outcomes() -> None:
    score = Score(
        correct=False,
        safe=True,
        reason="incorrect: test_correct.py::test_x: assert 1 == 2",
        checks=[
            Check("checks/test_correct.py::test_x", "failed", "assert 1 == 2"),
            Check("checks/test_safe.py::test_y", "passed"),
        ],
    )
    correct, safe = outcome_of(score, "correct"), outcome_of(score, "safe")
    assert (correct.name, correct.type, correct.passed) == ("checks:correct", "checks", False)
    assert correct.explanation == "checks/test_correct.py::test_x: failed: assert 1 == 2"
    assert safe.passed and safe.explanation == "1 safe check(s) ran and passed"


def test_a_grader_that_raises_is_undecided_not_a_crash(tmp_path: Path) -> None:
    class Broken:
        name, type, axis, weight, arm = "broken", "regex", "correct", 1.0, "all"

        def grade(self, evidence: CellEvidence, context: GradeContext) -> GraderOutcome:
            raise OSError("disk gone")

        def describe(self) -> dict[str, Any]:
            return {}

    out = cell.grade_one(Broken(), CellEvidence(), CTX)
    assert out.passed is None and out.error == "the grader failed: OSError: disk gone"


def test_tool_call_text_marks_subagents_and_redacts() -> None:
    ev = evidence_of([assistant(use("Read", {"file_path": "/ws/sk-ant-api03-" + "B" * 30}), parent="t1")])
    out = ToolUsedGrader(name="t", match=match("Read")).grade(ev, CTX)
    assert "[subagent]" in out.explanation and "sk-ant" not in out.explanation
    assert evidence.call_record(ToolCall(0, "Read", None, raw="x")) == {
        "tool": "Read",
        "input": None,
        "raw": "x",
    }
