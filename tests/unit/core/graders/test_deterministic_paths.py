"""Tool graders see placed paths: however the agent spells a path (`tests/./x`, `./tests/x`,
`tests//x`, the absolute path, `tests/sub/../x`, through a link inside the workspace) it is one
file for tool_used, tool_absent, tool_order and their input match; a path outside the
workspace never matches a workspace-relative pattern. Streams shaped as the CLI writes them
(an init event with the session's cwd, assistant tool_use blocks), workspaces on disk."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench._util.paths import PACKAGE_ROOT
from pytest_ponybench.core.graders.deterministic import (
    CallMatch,
    InputMatch,
    ToolAbsentGrader,
    ToolOrderGrader,
    ToolUsedGrader,
)
from pytest_ponybench.core.graders.evidence import CellEvidence, place
from pytest_ponybench.core.graders.outcome import GradeContext
from pytest_ponybench.core.tasks import load_task
from tests.support import transcript_of

CTX = GradeContext()
SESSION_ID = "386bc5af-80a1-46c7-851e-438e44fc8878"


def init(cwd: str) -> str:
    return json.dumps(
        {
            "type": "system",
            "subtype": "init",
            "cwd": cwd,
            "session_id": SESSION_ID,
            "model": "offline-reference",
            "permissionMode": "bypassPermissions",
            "claude_code_version": "2.1.332",
        }
    )


def tool_use(n: int, name: str, given: dict[str, Any]) -> str:
    return json.dumps(
        {
            "type": "assistant",
            "message": {
                "id": f"msg_{n:024x}",
                "type": "message",
                "role": "assistant",
                "model": "offline-reference",
                "content": [{"type": "tool_use", "id": f"toolu_{n:024x}", "name": name, "input": given}],
                "stop_reason": None,
            },
            "parent_tool_use_id": None,
            "session_id": SESSION_ID,
        }
    )


def tool_result(n: int) -> str:
    """The CLI's answer to call n: it ran, no error."""
    block = {"type": "tool_result", "tool_use_id": f"toolu_{n:024x}", "content": "ok", "is_error": False}
    return json.dumps({"type": "user", "message": {"role": "user", "content": [block]}})


def session(ws: Path, *calls: tuple[str, dict[str, Any]], cwd: str | None = None) -> CellEvidence:
    lines = [init(cwd or str(ws))]
    for n, (name, given) in enumerate(calls):
        lines += [tool_use(n, name, given), tool_result(n)]
    lines.append(json.dumps({"type": "result", "subtype": "success", "result": "Done."}))
    return CellEvidence.from_transcript(transcript_of(lines), ws)


def on(tools: str | tuple[str, ...], key: str, rx: str) -> CallMatch:
    names = (tools,) if isinstance(tools, str) else tools
    return CallMatch(tools=names, input=InputMatch(path=key, regex=re.compile(rx)))


WRITES = ("Write", "Edit", "MultiEdit")
# What task authors write: the workspace-relative form, anchored or not, and the older `(^|/)`.
PATTERNS = (r"^tests/test_x\.py$", r"tests/test_x\.py$", r"(^|/)tests/test_x\.py$", r"/tests/")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "workspace"
    (root / "tests" / "sub").mkdir(parents=True)
    (root / "tests" / "test_x.py").write_text("def test_x():\n    assert True\n")
    (root / "app.py").write_text("x = 1\n")
    return root


def spellings(ws: Path) -> list[str]:
    return [
        "tests/./test_x.py",
        "./tests/test_x.py",
        "tests//test_x.py",
        f"{ws}/tests/test_x.py",
        "tests/sub/../test_x.py",
        f"{ws}//tests/./sub/../test_x.py",
        f"{ws}/./tests/test_x.py",
    ]


def test_every_spelling_is_the_same_file_for_every_tool_grader(ws: Path) -> None:
    for spelled in spellings(ws):
        ev = session(
            ws,
            ("Read", {"file_path": f"{ws}/app.py"}),
            ("Write", {"file_path": spelled, "content": "def test_x():\n    pass\n"}),
        )
        for rx in PATTERNS:
            used = ToolUsedGrader(name="u", match=on(WRITES, "file_path", rx)).grade(ev, CTX)
            assert used.passed is True, (spelled, rx, used.explanation)
            absent = ToolAbsentGrader(name="a", match=on(WRITES, "file_path", rx)).grade(ev, CTX)
            assert absent.passed is False, (spelled, rx, absent.explanation)
            order = ToolOrderGrader(
                name="o", steps=(on("Read", "file_path", r"^app\.py$"), on("Write", "file_path", rx))
            ).grade(ev, CTX)
            assert order.passed is True, (spelled, rx, order.explanation)
            backwards = ToolOrderGrader(
                name="o", steps=(on("Write", "file_path", rx), on("Read", "file_path", r"^app\.py$"))
            ).grade(ev, CTX)
            assert backwards.passed is False
        # A rooted pattern sees the absolute path, normalised.
        rooted = on("Write", "file_path", "^" + re.escape(f"{ws}/tests/test_x.py") + "$")
        assert ToolUsedGrader(name="r", match=rooted).grade(ev, CTX).passed is True, spelled


def test_the_explanation_names_the_odd_spelling_and_the_file(ws: Path) -> None:
    ev = session(ws, ("Write", {"file_path": "tests/./test_x.py", "content": ""}))
    out = ToolAbsentGrader(name="a", match=on(WRITES, "file_path", r"^tests/test_x\.py$")).grade(ev, CTX)
    assert out.passed is False
    assert "#0 Write tests/./test_x.py (= tests/test_x.py)" in out.explanation


def test_other_files_and_the_other_path_keys(ws: Path) -> None:
    (ws / "nb.ipynb").write_text("{}")
    ev = session(
        ws,
        ("Write", {"file_path": "tests/./test_x.py.bak", "content": ""}),
        ("NotebookEdit", {"notebook_path": f"{ws}/./nb.ipynb", "new_source": ""}),
        ("Grep", {"pattern": "def", "path": f"{ws}/tests/"}),
        ("LS", {"path": "./tests//"}),
        ("Glob", {"pattern": f"{ws}/tests/./*.py"}),
        ("Glob", {"pattern": "./tests//*.py", "path": f"{ws}/"}),
    )
    assert (
        ToolAbsentGrader(name="a", match=on(WRITES, "file_path", r"^tests/test_x\.py$")).grade(ev, CTX).passed
    )
    assert (
        ToolUsedGrader(name="n", match=on("NotebookEdit", "notebook_path", r"^nb\.ipynb$"))
        .grade(ev, CTX)
        .passed
    )
    assert ToolUsedGrader(name="g", match=on("Grep", "path", r"^tests$"), min=1).grade(ev, CTX).passed
    assert ToolUsedGrader(name="l", match=on("LS", "path", r"^tests$")).grade(ev, CTX).passed
    globs = ToolUsedGrader(name="p", match=on("Glob", "pattern", r"^tests/\*\.py$"), min=2, max=2)
    assert globs.grade(ev, CTX).passed, globs.grade(ev, CTX).explanation
    assert ToolUsedGrader(name="w", match=on("Glob", "path", r"^\.$")).grade(ev, CTX).passed


def test_a_path_outside_the_workspace_never_matches_a_workspace_relative_pattern(ws: Path) -> None:
    outside = ws.parent / "elsewhere" / "tests"
    outside.mkdir(parents=True)
    spelled = [
        f"{ws}/../elsewhere/tests/test_x.py",
        "../elsewhere/tests/test_x.py",
        f"{outside}/test_x.py",
        "/tests/test_x.py",
        "~/tests/test_x.py",
    ]
    for path in spelled:
        ev = session(ws, ("Write", {"file_path": path, "content": ""}))
        for rx in (*PATTERNS, r"test_x\.py", r"tests"):
            assert ToolAbsentGrader(name="a", match=on("Write", "file_path", rx)).grade(ev, CTX).passed, (
                path,
                rx,
            )
            assert not ToolUsedGrader(name="u", match=on("Write", "file_path", rx)).grade(ev, CTX).passed
    # ...but a rooted pattern sees it, normalised: reading outside can still be graded.
    ev = session(ws, ("Read", {"file_path": f"{ws}/../elsewhere/tests//test_x.py"}))
    rooted = on("Read", "file_path", "^" + re.escape(f"{outside}/test_x.py") + "$")
    out = ToolUsedGrader(name="r", match=rooted).grade(ev, CTX)
    assert out.passed is True and "outside" in out.explanation


def test_links_inside_the_workspace_resolve_to_their_target(ws: Path) -> None:
    os.symlink("tests", ws / "t")  # relative, to a folder inside
    os.symlink(ws / "tests" / "test_x.py", ws / "alias.py")  # absolute, to a file inside
    os.symlink("../../tests", ws / "tests" / "sub" / "up")  # up and back in
    os.symlink("t", ws / "tt")  # a link to a link
    os.symlink("loop2", ws / "loop1")
    os.symlink("loop1", ws / "loop2")
    elsewhere = ws.parent / "elsewhere"
    (elsewhere / "tests").mkdir(parents=True)
    os.symlink(elsewhere, ws / "out")  # inside the workspace, pointing out of it
    for path in ("t/test_x.py", "alias.py", "tests/sub/up/test_x.py", f"{ws}/tt/./test_x.py"):
        ev = session(ws, ("Edit", {"file_path": path, "old_string": "True", "new_string": "1"}))
        for rx in PATTERNS:
            out = ToolAbsentGrader(name="a", match=on(WRITES, "file_path", rx)).grade(ev, CTX)
            assert out.passed is False, (path, rx, out.explanation)
    ev = session(ws, ("Write", {"file_path": "out/tests/test_x.py", "content": ""}))
    for rx in PATTERNS:
        assert ToolAbsentGrader(name="a", match=on(WRITES, "file_path", rx)).grade(ev, CTX).passed
    ev = session(ws, ("Write", {"file_path": "loop1/tests/test_x.py", "content": ""}))
    assert ToolAbsentGrader(name="a", match=on(WRITES, "file_path", PATTERNS[0])).grade(ev, CTX).passed
    placed = place("out/tests/test_x.py", str(ws), ws)
    assert placed.relative is None and placed.absolute == f"{elsewhere}/tests/test_x.py"
    assert place("loop1/x", str(ws), ws).relative == "loop1/x"  # a loop stays as written


def test_a_kept_workspace_is_placed_by_the_sessions_cwd(ws: Path, tmp_path: Path) -> None:
    """On a rescore the workspace lies in the run dir; the stream's paths name the scratch
    folder the session ran in (its init event's cwd), and links there name it too."""
    ran_in = "/tmp/ponybench-0/21502-cf9530e8/cell-nx2l41s5/workspace"
    os.symlink(f"{ran_in}/tests", ws / "t")
    ev = session(
        ws,
        ("Write", {"file_path": f"{ran_in}/tests/./test_x.py", "content": ""}),
        ("Write", {"file_path": f"{ran_in}/t/test_x.py", "content": ""}),
        ("Write", {"file_path": f"{ws}/tests/test_x.py", "content": ""}),  # not where it ran
        cwd=ran_in,
    )
    out = ToolUsedGrader(name="u", match=on("Write", "file_path", r"^tests/test_x\.py$")).grade(ev, CTX)
    assert out.passed is True and out.explanation.startswith("2 successful call(s)"), out.explanation


def test_a_key_that_is_not_a_path_of_that_tool_is_matched_as_written(ws: Path) -> None:
    ev = session(
        ws,
        ("mcp__files__open", {"path": "tests/./test_x.py"}),
        ("Bash", {"command": "cat tests/./test_x.py"}),
    )
    assert ToolUsedGrader(name="m", match=on("mcp__*", "path", r"tests/\./test_x")).grade(ev, CTX).passed
    assert not ToolUsedGrader(name="m", match=on("mcp__*", "path", r"^tests/test_x")).grade(ev, CTX).passed


def test_the_shipped_tests_untouched_grader_sees_an_odd_spelling(ws: Path) -> None:
    task = load_task(PACKAGE_ROOT.parent / "benchmarks" / "tasks" / "graded_workflow_slug_tests")
    grader = next(g for g in task.graders if g.name == "tests_untouched")
    for spelled in ("tests/./test_slug.py", "./tests//test_slug.py", f"{ws}/tests/sub/../test_slug.py"):
        ev = session(ws, ("Write", {"file_path": spelled, "content": "def test_slug():\n    pass\n"}))
        assert grader.grade(ev, CTX).passed is False, spelled
    ev = session(ws, ("Write", {"file_path": "tests/test_slug_more.py", "content": ""}))
    assert grader.grade(ev, CTX).passed is True
