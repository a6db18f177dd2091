"""What the graders read of a cell (no claude): the reply, the transcript and the ordered calls from
recorded stream lines, tool inputs that do not parse kept raw, a missing stream, huge transcripts
and overlong lines cut, the record's bounded and redacted copy, workspace globs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.agents import streamread
from pytest_ponybench.core.graders import evidence
from pytest_ponybench.core.graders.deterministic import (
    CallMatch,
    InputMatch,
    RegexGrader,
    ToolUsedGrader,
)
from pytest_ponybench.core.graders.evidence import CellEvidence, compile_glob
from tests.unit._support.evidence import (
    CTX,
    answered,
    assistant,
    calls,
    evidence_of,
    result,
    stream_evidence,
    text,
    use,
)


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
