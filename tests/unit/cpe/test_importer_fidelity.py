"""The import measures what `claude plugin eval` measures: a suite in the forms plugin repositories
ship (data/cpe/fidelity-evals: llm-only, skill routing, trace regexes, a case the CLI rejects,
mocks and history) imported grader by grader, and the tools each case's session is offered.

tests/integration/test_cpe_fidelity.py runs the real CLI on the same suite and ponybench on its
import, and compares each grader's outcome and the first request's tools."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.cpe.cases import CaseError
from pytest_ponybench.cpe.importer import ImportResult, import_suite, render
from pytest_ponybench.cpe.jsontext import field_match, tool_names
from pytest_ponybench.cpe.mapping import NEVER, NOT_IMPORTED
from pytest_ponybench.cpe.tools import ALWAYS, TASK_LIST, cpe_offer
from tests.support import REPO
from tests.unit._support import DATA as UNIT_DATA

DATA = UNIT_DATA / "cpe"
EXAMPLE_PLUGIN = REPO / "examples" / "careful-plugin"
SKILL_FIRED = {"path": "skill", "regex": r"^(?:(?:[\w-]+:)?careful-review)\Z"}

# Every grader of the suite: what it became here (its [[graders]] table), or the kind of the
# checklist line that names it instead.
EXPECTED: dict[str, dict[str, dict[str, Any] | str]] = {
    "explain-the-review": {
        "explains": {"type": "llm"},
        "brief": {"type": "llm", "weight": 0.5},
    },
    "route-review": {
        "skill-fired": {
            "type": "tool_used",
            "tool": "Skill",
            "input": SKILL_FIRED,
            "min": 1,
            "arm": "arms-only",
        },
        "no-web": {"type": "tool_used", "tool": "WebFetch", "min": 0, "max": 0},
        "never-twice": NEVER,  # max: 0 with no min: CPE's min stays 1
    },
    "route-negative": {
        "not-fired": {"type": "tool_used", "tool": "Skill", "input": SKILL_FIRED, "min": 0, "max": 0},
        "one-word": {"type": "regex", "target": "reply", "pattern": r"\s\S+\s", "mode": "not_contains"},
    },
    "trace-checks": {
        "skill-in-trace": {"type": "tool_used", "tool": "Skill", "input": SKILL_FIRED},
        "skill-called": {"type": "tool_used", "tool": "Skill", "arm": "arms-only"},
        "no-persona": {
            "type": "tool_absent",
            "tool": "Agent",
            "input": {"path": "subagent_type", "regex": "^(?:personas:)"},
        },
        "hook-said": NOT_IMPORTED,  # hook output in the trace: no tool call to read it from
        "wrote-notes": {"type": "file_exists", "path": "notes.md"},  # and it never passes (no writer)
    },
    "follow-up": {"adds-tests": {"type": "llm"}},
}


@pytest.fixture
def careful(tmp_path: Path) -> Path:
    root = tmp_path / "careful"
    shutil.copytree(EXAMPLE_PLUGIN, root)
    shutil.copytree(DATA / "fidelity-evals", root / "evals")
    return root


def imported(careful: Path, tmp_path: Path, **kw: Any) -> ImportResult:
    return import_suite(careful / "evals", tmp_path / "tasks", cwd=tmp_path, **kw)


def toml(tmp_path: Path, task: str) -> dict[str, Any]:
    return tomllib.loads((tmp_path / "tasks" / task / "task.toml").read_text())


def test_every_grader_is_imported_as_it_measures_or_named(careful: Path, tmp_path: Path) -> None:
    done = imported(careful, tmp_path)
    assert {w.draft.task for w in done.tasks} == set(EXPECTED)
    for task, graders in EXPECTED.items():
        drafted = next(w.draft for w in done.tasks if w.draft.task == task)
        tables = {g["name"]: g for g in toml(tmp_path, task).get("graders", [])}
        for name, want in graders.items():
            if isinstance(want, str):
                assert name not in tables, (task, name)
                lines = [i.text for i in drafted.items if i.kind == want]
                assert any(f"grader {name!r}" in t for t in lines), (task, name, want, lines)
            else:
                got = dict(tables[name])
                if want["type"] == "llm":  # its criteria: the grader file's body
                    assert got.pop("criteria").strip(), (task, name)
                assert got == {"name": name, **want}, (task, name)


def test_the_judge_votes_as_often_as_cpe_s(careful: Path, tmp_path: Path) -> None:
    imported(careful, tmp_path)
    for task in ("explain-the-review", "follow-up"):
        assert toml(tmp_path, task)["judge_runs"] == 3
    assert "judge_runs" not in toml(tmp_path, "route-review")  # no judge grader: nothing to vote


def test_each_session_is_offered_what_cpe_s_is(careful: Path, tmp_path: Path) -> None:
    imported(careful, tmp_path)
    # [Bash, Read] in CPE: a grant on top of what every session is offered, Bash needing the operator.
    assert toml(tmp_path, "route-review")["allowed_tools"] == list(ALWAYS)
    assert toml(tmp_path, "explain-the-review")["allowed_tools"] == list(ALWAYS)
    # TodoWrite brings the task list; a disallowed Agent is taken away.
    trace = toml(tmp_path, "trace-checks")
    assert trace["allowed_tools"] == sorted({*ALWAYS, *TASK_LIST} - {"Agent"})
    assert trace["disallowed_tools"] == ["Agent"]


def test_the_history_and_the_suite_s_mocks_come_with_each_task(careful: Path, tmp_path: Path) -> None:
    imported(careful, tmp_path)
    follow = tmp_path / "tasks" / "follow-up"
    assert toml(tmp_path, "follow-up")["history"] == "history/history.jsonl"
    source = careful / "evals" / "history" / "history.jsonl"
    assert (follow / "history" / "history.jsonl").read_bytes() == source.read_bytes()  # as it is
    # The suite's mocks/ answers for every case, as CPE serves it to every case.
    for task in ("follow-up", "route-review", "explain-the-review"):
        assert (tmp_path / "tasks" / task / "mocks" / "notes" / "search.md").is_file(), task


def test_what_cpe_rejects_is_skipped_and_what_has_no_equivalent_is_listed(
    careful: Path, tmp_path: Path
) -> None:
    done = imported(careful, tmp_path)
    assert list(done.skipped) == ["evals/rejected"]
    assert "key 'graders[0].colour' is not a key of a regex grader" in done.skipped["evals/rejected"][0]
    out = render(done, cwd=tmp_path)
    for line in (
        "  skipped evals/rejected/: evals/rejected/case.yaml: key 'graders[0].colour'",
        "  - [ ] route-review: grader 'never-twice' (tool_used, evals/route-review/graders/never-twice.md): "
        "max: 0 with no min: min stays 1",
        "  - [ ] trace-checks: grader 'wrote-notes' (file_exists, evals/trace/case.yaml): it needs a file "
        "the run creates, and no tool its session is offered can write one",
        "  - [ ] trace-checks: grader 'hook-said' (regex, evals/trace/case.yaml): target trace is every "
        "stream-json event as JSON",
    ):
        assert any(o.startswith(line) for o in out.splitlines()), line
    # History and mocks map now: neither is listed as having no equivalent.
    assert "history_file" not in out and "mocks/" not in out
    with pytest.raises(CaseError, match="evals/rejected/case.yaml: key 'graders"):
        imported(careful, tmp_path / "strict", strict=True)


def test_a_grant_as_the_cpe_run_gave_it(careful: Path, tmp_path: Path) -> None:
    done = imported(careful, tmp_path, grants=["Write"])
    assert toml(tmp_path, "route-review")["allowed_tools"] == sorted(
        {*ALWAYS, "Edit", "NotebookEdit", "Write"}
    )
    trace = next(w.draft for w in done.tasks if w.draft.task == "trace-checks")
    assert not [i for i in trace.items if i.kind == NEVER]  # notes.md can be written now
    assert "with --allow-tools Write:" in render(done, cwd=tmp_path)


def test_a_skill_no_plugin_has_never_fires(careful: Path, tmp_path: Path) -> None:
    fired = careful / "evals" / "route-review" / "graders" / "skill-fired.md"
    fired.write_text(fired.read_text().replace("careful-review", "carefull-review"))
    done = imported(careful, tmp_path)
    review = next(w.draft for w in done.tasks if w.draft.task == "route-review")
    assert any(
        i.kind == NEVER
        and "'skill-fired'" in i.text
        and "none of the case's plugins has (theirs: careful-review)" in i.text
        for i in review.items
    ), review.items


# ---------------------------------------------------------------- the pieces


@pytest.mark.parametrize(
    ("pattern", "key", "value"),
    [
        (r'"skill"\s*:\s*"(?:[\w-]+:)?careful-review"', "skill", r"^(?:(?:[\w-]+:)?careful-review)$"),
        (r'"skill":\s*"(?:seams:)?(?:pr-review)"', "skill", r"^(?:(?:seams:)?(?:pr-review))$"),
        (r"\"skill\"\s*:\s*\"init\"", "skill", "^(?:init)$"),
        (r'"subagent_type"\s*:\s*"personas:', "subagent_type", "^(?:personas:)"),
        (r'"file_path":"[^"]*\.py"', "file_path", r'^(?:[^"]*\.py)$'),
        (r'"name"\s*:\s*"(Agent|Task)"', "name", "^(?:(Agent|Task))$"),
    ],
)
def test_a_json_text_regex_of_one_field(pattern: str, key: str, value: str) -> None:
    found, why = field_match(pattern)
    assert found is not None, why
    assert (found.key, found.value) == (key, value)


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ("careful-review", "does not start with a quoted key"),
        (r'"a":"x"|"b":"y"', "alternatives around the key"),
        (r'"skill":"a|b"', "alternatives around the key"),
        (r'"skill":"x","args":"y"', "more than one field"),
        (r'"command":"(?:[^"\\]|\\.)*fix', "reads the JSON text's escapes"),
        (r'"skill":"x\ny"', "reads the JSON text's escapes"),
        (r'"(DROPDOWN|ONE_OF_LIST)"', "not a quoted key, a colon and a quoted string value"),
        (r'"replace_all":\s*true', "not a quoted key, a colon and a quoted string value"),
    ],
)
def test_a_json_text_regex_that_says_more_is_not_one_field(pattern: str, why: str) -> None:
    found, reason = field_match(pattern)
    assert found is None and why in reason


def test_tool_names_only_from_literal_names() -> None:
    assert tool_names(field_match(r'"name"\s*:\s*"(Agent|Task)"')[0]) == ("Agent", "Task")  # type: ignore[arg-type]
    assert tool_names(field_match(r'"name":"Skill"')[0]) == ("Skill",)  # type: ignore[arg-type]
    assert tool_names(field_match(r'"name":"mcp__.*')[0]) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("allowed", "disallowed", "grants", "withheld", "offered"),
    [
        # measured with claude 2.1.332 (the first request of CPE's session), case by case
        ((), (), (), (), ALWAYS),
        (("Bash", "Read"), (), (), (), ALWAYS),
        (("Write", "WebSearch", "NotebookEdit", "LS"), (), (), (), ALWAYS),
        (("TodoWrite",), (), (), (), sorted({*ALWAYS, *TASK_LIST})),
        (("TaskGet",), (), (), (), sorted({*ALWAYS, *TASK_LIST})),
        ((), ("Agent",), (), (), ("Glob", "Grep", "Read", "Skill", "TaskStop", "ToolSearch")),
        ((), ("TaskStop",), (), (), ("Agent", "Glob", "Grep", "Read", "Skill")),
        ((), ("Read", "Glob"), (), (), ("Agent", "Grep", "Skill", "TaskStop", "ToolSearch")),
        ((), (), ("Write",), (), sorted({*ALWAYS, "Edit", "NotebookEdit", "Write"})),
        ((), (), ("Edit",), (), sorted({*ALWAYS, "Edit", "NotebookEdit", "Write"})),
        ((), (), ("WebSearch",), (), sorted({*ALWAYS, "WebSearch"})),
        (("Read",), (), (), ("Agent", "TaskStop"), ("Glob", "Grep", "Read", "Skill")),
    ],
)
def test_the_offer_measured(
    allowed: tuple[str, ...],
    disallowed: tuple[str, ...],
    grants: tuple[str, ...],
    withheld: tuple[str, ...],
    offered: tuple[str, ...],
) -> None:
    assert cpe_offer(allowed, disallowed, grants, withheld).tools == tuple(offered)


def test_grants_without_a_form_here() -> None:
    offer = cpe_offer(("Bash",), (), ("Bash(npm test:*)", "Write(src/**)", "mcp__plugin_x_y__*"))
    assert offer.shells == ("Bash(npm test:*)",) and offer.scoped == ("Write(src/**)",)
    assert offer.mcp == ("mcp__plugin_x_y__*",) and offer.not_granted == ("Bash",)
    assert "Write" in offer.tools and "Bash" not in offer.tools
