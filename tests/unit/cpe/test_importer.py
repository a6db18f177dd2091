"""`ponybench import-cpe`: `claude plugin eval` suites written from the CLI's documented format
(`claude plugin eval --help`, `claude plugin eval init --bare`, the suite under
data/cpe/careful-evals that the CLI itself ran) become task folders; a case CPE would not run is
skipped naming its file and key (--strict, or a suite with nothing left, is refused whole)."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench import cli
from pytest_ponybench.core import tasks
from pytest_ponybench.cpe import tomlw
from pytest_ponybench.cpe.cases import Case, CaseError, load_case
from pytest_ponybench.cpe.importer import import_suite, render
from pytest_ponybench.cpe.mapping import NOT_IMPORTED, TODO, Item, policy_toml
from pytest_ponybench.cpe.tools import ALWAYS
from tests.support import REPO, doc_example
from tests.unit._support import DATA as UNIT_DATA

DATA = UNIT_DATA / "cpe"
EXAMPLE_PLUGIN = REPO / "examples" / "careful-plugin"


def plugin(root: Path, name: str = "careful", evals: dict[str, str] | None = None) -> Path:
    """A plugin folder (a manifest) holding an eval suite of the given files under evals/."""
    (root / ".claude-plugin").mkdir(parents=True, exist_ok=True)
    (root / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": name, "version": "1.0.0"}))
    for rel, text in (evals or {}).items():
        path = root / "evals" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def task_toml(folder: Path) -> dict[str, Any]:
    return tomllib.loads((folder / "task.toml").read_text())


def graders(folder: Path) -> dict[str, dict[str, Any]]:
    return {g["name"]: g for g in task_toml(folder).get("graders", [])}


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- the suite the CLI ran


@pytest.fixture
def careful(tmp_path: Path) -> Path:
    """examples/careful-plugin with the suite data/cpe/careful-evals, as record_cpe_results.py ran it."""
    root = tmp_path / "careful"
    shutil.copytree(EXAMPLE_PLUGIN, root)
    shutil.copytree(DATA / "careful-evals", root / "evals")
    return root


def test_the_suite_the_cli_ran_imports_as_three_tasks(
    careful: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "import-cpe", "careful/evals", "-o", "benchmarks/tasks")
    assert code == 0, err
    out_dir = tmp_path / "benchmarks" / "tasks"
    assert sorted(p.name for p in out_dir.iterdir()) == ["Judge_explain_the_skill", "greet", "review"]

    greet = out_dir / "greet"
    assert (greet / "prompt.md").read_text() == "Write a greet function in greet.py.\n"
    assert task_toml(greet) == {
        "kind": "open",
        "description": "Says what it did in one line.",
        "tags": ["smoke"],
        "runs": 3,
        "max_turns": 5,
        "cell_timeout": 120,
        # CPE's allowed_tools is a grant on top of what its session is always offered, not a whitelist
        "allowed_tools": list(ALWAYS),
        "graders": [
            {"name": "says_done", "type": "regex", "target": "reply", "pattern": "^Done"},
            {"name": "review_skill", "type": "tool_used", "tool": "Skill", "arm": "arms-only"},
            {"name": "wrote_greet", "type": "file_exists", "path": "greet.py"},
        ],
    }
    # The prose case: the prompt is prompt.md's body, each graders/<name>.md one grader.
    review = out_dir / "review"
    assert (review / "prompt.md").read_text() == "Review the code in this folder for injection problems.\n"
    assert graders(review) == {
        "nothing_needed": {
            "name": "nothing_needed",
            "type": "regex",
            "target": "reply",
            "pattern": "nothing needed",
            "weight": 2.0,
        },
        "skill_both": {"name": "skill_both", "type": "tool_used", "tool": "Skill"},  # arm: both
    }
    # CPE's defaults are written out (CPE runs 3 times, 300 s), not left to ponybench's.
    assert task_toml(review)["runs"] == 3 and task_toml(review)["cell_timeout"] == 300
    judge = out_dir / "Judge_explain_the_skill"
    assert task_toml(judge)["judge_runs"] == 3  # CPE's judge votes three times
    assert graders(judge) == {
        "explains": {
            "name": "explains",
            "type": "llm",
            "criteria": "The reply explains what the careful-review skill checks.",
        }
    }
    for folder in (greet, review, judge):
        assert (folder / "IMPORTED.md").is_file()
        for ref in ("good", "bad"):
            note = tomllib.loads((folder / ref / "ref.toml").read_text())
            assert set(note) == {"note"} and "claude plugin eval" in note["note"]

    # The arm, as a pyproject snippet and as a flag, and the command to run next.
    assert '[tool.ponybench.arms]\n  baseline = {}\n  careful = { plugin = "careful" }' in out
    assert "--arm careful=plugin:careful" in out
    assert "--tasks greet,Judge_explain_the_skill,review --models offline-coin" in out
    # The trace grader has no equivalent: listed, not imported.
    assert (
        "Judge_explain_the_skill: grader 'trace_names_skill' (regex, evals/judge/case.yaml): target trace"
        in out
    )
    assert "greet: grader(s) review_skill: a bare `tool_used: Skill` is with-only in CPE" in out
    # greet.py can never be written: CPE grants no tool that writes a file without --allow-tools.
    assert "wrote   greet                    3 of 3 grader(s), 1 arms-only, 1 never passing" in out
    assert (
        "greet: grader 'wrote_greet' (file_exists, evals/greet/case.yaml): it needs a file the run "
        "creates, and no tool its session is offered can write one" in out
    )
    trace = (judge / "IMPORTED.md").read_text()
    assert "## Not imported (no equivalent here)" in trace and "trace_names_skill" in trace


def test_imported_folders_load_with_the_task_loader(careful: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "tasks"
    import_suite(careful / "evals", out_dir, cwd=tmp_path)
    if "graders" not in tasks.KNOWN_KEYS:
        # This branch's loader predates [[graders]]: check every other key it knows, the policy
        # keys included, on copies without the graders.
        for folder in list(out_dir.iterdir()):
            meta = task_toml(folder)
            meta.pop("graders", None)
            (folder / "task.toml").write_text(tomlw.dumps(meta))
    loaded = {t.id: t for t in tasks.load_tasks(out_dir)}
    assert set(loaded) == {"greet", "review", "Judge_explain_the_skill"}
    greet = loaded["greet"]
    assert greet.kind == "open" and greet.max_turns == 5 and greet.tags == ("smoke",)
    assert greet.policy.allowed_tools == ALWAYS
    assert greet.policy.cell_timeout == 120 and greet.policy.runs == 3


def test_a_second_import_leaves_existing_folders_alone(
    careful: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "tasks"
    first = import_suite(careful / "evals", out_dir, cwd=tmp_path)
    assert [w.existed for w in first.tasks] == [False, False, False]
    (out_dir / "greet" / "prompt.md").write_text("my own edits\n")
    before = {p: p.read_bytes() for p in out_dir.rglob("*") if p.is_file()}
    code, out, _ = run_cli(capsys, "import-cpe", str(careful / "evals"), "-o", str(out_dir))
    assert code == 0
    assert out.count("exists, left alone") == 3
    assert {p: p.read_bytes() for p in out_dir.rglob("*") if p.is_file()} == before
    assert not [p for p in out_dir.iterdir() if p.name.startswith(".")]  # no staging left behind


def test_a_plugin_root_finds_its_eval_dir(careful: Path, tmp_path: Path) -> None:
    done = import_suite(careful, tmp_path / "tasks", cwd=tmp_path)
    assert {w.draft.task for w in done.tasks} == {"greet", "review", "Judge_explain_the_skill"}
    manifest = careful / ".claude-plugin" / "plugin.json"
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "experimental": {"evals": "suite"}}))
    (careful / "evals").rename(careful / "suite")
    again = import_suite(careful, tmp_path / "tasks2", cwd=tmp_path)
    assert len(again.tasks) == 3 and again.evals_dir == careful / "suite"


def test_axis_correct_makes_cpe_pass_the_correct_axis(careful: Path, tmp_path: Path) -> None:
    import_suite(careful / "evals", tmp_path / "tasks", axis="correct", cwd=tmp_path)
    greet = tmp_path / "tasks" / "greet"
    assert task_toml(greet)["axis"] == "correct"
    axes = {n: g.get("axis") for n, g in graders(greet).items()}
    assert axes == {
        "says_done": "correct",
        "review_skill": None,
        "wrote_greet": "correct",
    }  # arms-only stays out
    assert "the graders decide correct" in (greet / "IMPORTED.md").read_text()


# ---------------------------------------------------------------- the init --bare template


def test_the_bare_template_is_refused_until_filled_in(tmp_path: Path) -> None:
    root = plugin(tmp_path / "p")
    shutil.copytree(DATA / "bare-template", root / "evals")
    with pytest.raises(CaseError) as exc:
        import_suite(root / "evals", tmp_path / "tasks", cwd=tmp_path)
    assert exc.value.problems == [
        "evals/demo/prompt.md: key 'execution.prompt' is still the blank `init` template: "
        "write the user prompt to test",
        "evals/demo/graders/criteria.md: key 'criteria' is still the blank `init` template: "
        "write the concrete pass criteria",
    ]
    assert not (tmp_path / "tasks").exists()
    prompt = root / "evals" / "demo" / "prompt.md"
    prompt.write_text(
        prompt.read_text().replace("TODO: describe what the agent should do", "Summarise README.md.")
    )
    criteria = root / "evals" / "demo" / "graders" / "criteria.md"
    criteria.write_text(
        criteria.read_text().replace(
            "TODO: describe what a successful response looks like", "Names every section."
        )
    )
    import_suite(root / "evals", tmp_path / "tasks", cwd=tmp_path)
    demo = tmp_path / "tasks" / "demo"
    assert (demo / "prompt.md").read_text() == "Summarise README.md.\n"
    assert task_toml(demo) == {
        "kind": "open",
        "runs": 3,
        "max_turns": 10,
        "cell_timeout": 300,
        "allowed_tools": list(ALWAYS),
        "judge_runs": 3,
        "graders": [{"name": "criteria", "type": "llm", "criteria": "Names every section."}],
    }


# ---------------------------------------------------------------- every field, both forms

TRAJECTORY = "\n".join(
    json.dumps(e)
    for e in [
        {"type": "system", "subtype": "init", "tools": ["Read"]},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "Looking."}]}},
        {"type": "result", "subtype": "success", "result": "The bug is the off-by-one in pager.py."},
    ]
)

HISTORY = (
    json.dumps({"type": "user", "message": {"role": "user", "content": "The pager skips a line."}}) + "\n"
)
KITCHEN_YAML = """\
schema_version: "1.0"
name: "Fix: the pager"
description: Finds and fixes the pager bug.
tags: [bugs, slow-ones]
plugins: [../../../helper]
runs: 5
expected_outcome: The agent names the off-by-one.
context:
  scaffold_script: setup.sh
  history_file: history.jsonl
  add_dirs: [fixtures]
  colour: blue
execution:
  prompt: Fix the pager bug in pager.py.
  max_turns: 12
  timeout_seconds: 600
  model: sonnet
  allowed_tools: [Read, Edit, "Bash(pytest:*)"]
  disallowed_tools: [WebFetch]
  artifact_publish: true
  growthbook_overrides: {tengu_flag: true}
  append_system_prompt: |
    Be brief.
    Quote "exactly".
  env: {EVAL_APP_MODE: test, EVAL_FEATURE: on, EVAL_GITHUB_TOKEN: x}
  verbose: true
graders:
  - {type: regex, name: counted, pattern: "\\\\bfix(ed)?\\\\b", flags: im, match: "count:2", weight: 2}
  - {type: regex, name: no_todo, target: {source: file, path: out/notes.md}, pattern: TODO,
     match: not_contains}
  - {type: regex, name: in_trace, target: trace, pattern: Skill}
  - {type: regex, name: new_names, target: files, pattern: "\\\\.py$"}
  - {type: regex, name: mocked, target: mock_calls, pattern: x}
  - {type: regex, name: sticky, pattern: x, flags: y}
  - {type: regex, name: "named group", pattern: "(?<n>ab)\\\\k<n>$"}
  - {type: tool_used, name: skill_fired, tool: Skill, input_match: "careful:careful-review", arm: with-only}
  - {type: tool_used, name: ran_tests, tool: Bash, input_match: 'pytest', min: 1, max: 3}
  - {type: tool_used, name: json_match, tool: Bash, input_match: '"command":"pytest'}
  - {type: tool_used, name: mcp_input, tool: mcp__notes__add, input_match: x}
  - {type: tool_order, name: read_then_edit, before: Read, after: {tool: Edit, input_match: "pager"}}
  - {type: file_exists, name: wrote_test, path: "tests/**/test_*.py"}
  - {type: file_exists, name: no_backup, path: "*.bak", exists: false}
  - {type: file_exists, name: fixture_there, path: "fixtures/*.txt"}
  - {type: llm, name: explains, criteria: "Says why it broke.", arm: both}
  - {type: llm, name: on_files, criteria: "Adds tests.", focus: files}
  - {type: llm, name: on_notes, criteria: "Notes are clear.", focus: {source: file, path: notes.md}}
  - {type: llm, name: on_trace, criteria: "Reads first.", focus: trace}
  - {type: llm, name: on_image, criteria: "Chart is right.", focus: {source: file, path: chart.png}}
  - {type: baseline, name: vs_baseline, baseline_file: baseline.jsonl, criteria: "As good as the baseline."}
  - {type: baseline, name: vs_missing, baseline_file: missing.jsonl, criteria: "x"}
"""

PROSE = {
    "prose/prompt.md": """\
---
schema_version: "1.1"
name: prose case
description: Written in prose.
tags: [prose]
plugins: [../..]
runs: 2
expected_outcome: A summary.
model: opus
max_turns: 4
timeout_seconds: 60
allowed_tools: [Read]
disallowed_tools: [Agent]
artifact_publish: false
growthbook_overrides: {}
append_system_prompt: Reply in English.
env: {EVAL_LANG_HINT: en}
---

Summarise the notes.
""",
    "prose/case.yaml": """\
schema_version: "1.0"
name: yaml name
execution:
  disallowed_tools: [TaskStop]
graders:
  - {type: regex, name: from_yaml, pattern: "summary"}
""",
    "prose/graders/pattern.md": "---\ntype: regex\nflags: i\n---\n\nnotes?\n",
    "prose/graders/judge.md": "---\ntype: llm\nweight: 3\n---\n\nThe summary covers every note.\n",
    "prose/graders/order.md": "---\ntype: tool_order\nbefore: Read\nafter: Write\n---\n",
    "prose/graders/file.md": "---\ntype: file_exists\npath: summary.md\n---\n",
    "prose/graders/baseline.md": (
        "---\ntype: baseline\nbaseline_file: ../kitchen/baseline.jsonl\n---\n\nAt least as clear.\n"
    ),
    "prose/graders/skill.md": "---\ntype: tool_used\ntool: Skill\n---\n",
    "prose/graders/README.md": "These notes have no front matter: not a grader.\n",
}


@pytest.fixture
def kitchen(tmp_path: Path) -> Path:
    root = plugin(tmp_path / "repo" / "plugins" / "main", "main-plugin")
    plugin(tmp_path / "repo" / "plugins" / "helper", "helper")
    evals = root / "evals"
    case = evals / "kitchen"
    case.mkdir(parents=True)
    (case / "case.yaml").write_text(KITCHEN_YAML)
    (case / "baseline.jsonl").write_text(TRAJECTORY + "\n")
    (case / "history.jsonl").write_text(HISTORY)
    (case / "setup.sh").write_text(
        "mkdir -p src && echo 'x = 1' > src/app.py && git init -q . && echo hi > notes.md\n"
    )
    (case / "fixtures").mkdir()
    (case / "fixtures" / "data.txt").write_text("fixture data\n")
    for rel, text in PROSE.items():
        (evals / rel).parent.mkdir(parents=True, exist_ok=True)
        (evals / rel).write_text(text)
    (evals / "mocks" / "notes").mkdir(parents=True)
    (evals / "mocks" / "notes" / "add.md").write_text("---\ntype: fixed\n---\n\nok\n")
    (evals / "results" / "20261201-101010").mkdir(parents=True)
    shutil.copy(
        DATA / "results" / "with-without.json",
        evals / "results" / "20261201-101010" / "aggregate-result.json",
    )
    return root


def test_every_case_yaml_field_maps_or_is_listed(kitchen: Path, tmp_path: Path) -> None:
    done = import_suite(kitchen / "evals", tmp_path / "tasks", cwd=tmp_path / "repo")
    folder = tmp_path / "tasks" / "Fix_the_pager"
    meta = task_toml(folder)
    assert {k: v for k, v in meta.items() if k != "graders"} == {
        "kind": "open",
        "description": "Finds and fixes the pager bug.",
        "tags": ["bugs", "slow_ones"],
        "runs": 5,
        "max_turns": 12,
        "cell_timeout": 600,
        "allowed_tools": list(ALWAYS),  # Edit and Bash(pytest:*) need the operator's grant in CPE
        "disallowed_tools": ["WebFetch"],
        "append_system_prompt": 'Be brief.\nQuote "exactly".\n',
        "env": {"EVAL_APP_MODE": "test", "EVAL_FEATURE": "on"},  # YAML 1.2: `on` is a string
        "judge_runs": 3,
        "history": "history/history.jsonl",  # the session the first turn resumes, as it is
    }
    assert (folder / "history" / "history.jsonl").read_text() == HISTORY
    # The suite's mocks answer for the task's MCP tools, from its own mocks/ folder.
    assert (folder / "mocks" / "notes" / "add.md").read_text() == "---\ntype: fixed\n---\n\nok\n"
    assert (folder / "prompt.md").read_text() == "Fix the pager bug in pager.py.\n"
    assert (folder / "seed" / "fixtures" / "data.txt").read_text() == "fixture data\n"  # add_dirs
    assert not (folder / "seed" / "src").exists()  # the scaffold is not run without --allow-scaffold
    got = graders(folder)
    assert got == {
        "counted": {
            "name": "counted",
            "type": "regex",
            "target": "reply",
            "pattern": "\\bfix(ed)?\\b",
            "flags": "im",
            "mode": "count",
            "min": 2,
            "max": 2,
            "weight": 2.0,
        },
        "no_todo": {
            "name": "no_todo",
            "type": "regex",
            "target": "files",
            "glob": "out/notes.md",
            "pattern": "TODO",
            "mode": "not_contains",
        },
        "named_group": {
            "name": "named_group",
            "type": "regex",
            "target": "reply",
            "pattern": "(?P<n>ab)(?P=n)\\Z",
        },
        "mocked": {"name": "mocked", "type": "regex", "target": "mock_calls", "pattern": "x"},
        "skill_fired": {
            "name": "skill_fired",
            "type": "tool_used",
            "tool": "Skill",
            "input": {"path": "skill", "regex": "careful:careful-review"},
            "arm": "arms-only",
        },
        "ran_tests": {
            "name": "ran_tests",
            "type": "tool_used",
            "tool": "Bash",
            "input": {"path": "command", "regex": "pytest"},
            "min": 1,
            "max": 3,
        },
        "json_match": {  # the JSON text's "command":"pytest... is input.command starting with pytest
            "name": "json_match",
            "type": "tool_used",
            "tool": "Bash",
            "input": {"path": "command", "regex": "^(?:pytest)"},
        },
        "read_then_edit": {
            "name": "read_then_edit",
            "type": "tool_order",
            "steps": [{"tool": "Read"}, {"tool": "Edit", "input": {"path": "file_path", "regex": "pager"}}],
        },
        "wrote_test": {"name": "wrote_test", "type": "file_exists", "path": "tests/**/test_*.py"},
        "no_backup": {"name": "no_backup", "type": "file_absent", "path": "*.bak"},
        "fixture_there": {"name": "fixture_there", "type": "file_exists", "path": "fixtures/*.txt"},
        "explains": {"name": "explains", "type": "llm", "criteria": "Says why it broke."},
        "on_files": {"name": "on_files", "type": "llm", "criteria": "Adds tests.", "on": "diff"},
        "on_notes": {
            "name": "on_notes",
            "type": "llm",
            "criteria": "Notes are clear.",
            "on": "files",
            "files": ["notes.md"],
        },
        "vs_baseline": {
            "name": "vs_baseline",
            "type": "llm_reference",
            "reference": "references/vs_baseline.md",
            "criteria": "As good as the baseline.",
            "pass_if": "not_worse",
        },
    }
    assert (folder / "references" / "vs_baseline.md").read_text() == "The bug is the off-by-one in pager.py."
    checklist = render(done, cwd=tmp_path / "repo")
    for line in [
        "grader 'in_trace' (regex, evals/kitchen/case.yaml): target trace is every stream-json event",
        "grader 'new_names' (regex, evals/kitchen/case.yaml): target files is the list of file names",
        "grader 'sticky' (regex, evals/kitchen/case.yaml): pattern 'x': the sticky flag y has no Python",
        "grader 'json_match' (tool_used, evals/kitchen/case.yaml): its session is never offered Bash (nor "
        "is any ponybench session)",
        "grader 'wrote_test' (file_exists, evals/kitchen/case.yaml): it needs a file the run creates",
        "grader 'read_then_edit' (tool_order, evals/kitchen/case.yaml): its session is never offered Edit",
        "grader 'mcp_input' (tool_used, evals/kitchen/case.yaml): input_match on mcp__notes__add",
        "grader 'on_trace' (llm, evals/kitchen/case.yaml): focus trace",
        "grader 'on_image' (llm, evals/kitchen/case.yaml): the judge reads chart.png as an image",
        "grader 'vs_missing' (baseline, evals/kitchen/case.yaml): baseline_file 'missing.jsonl' does not",
        "env: 'EVAL_GITHUB_TOKEN' looks like a credential",
        "allowed_tools lists Edit, Bash(pytest:*), which CPE offers only when the operator grants it",
        "(never Bash(pytest:*): no ponybench session is offered a shell)",
        "context.scaffold_script 'setup.sh': not run (--allow-scaffold",
        "execution.growthbook_overrides (tengu_flag): feature flags",
        "execution.artifact_publish: publishing artifacts",
        "expected_outcome: kept in IMPORTED.md",
        "evals/kitchen/case.yaml: key 'context.colour': unknown to CPE's schema (CPE ignores it too)",
        "evals/kitchen/case.yaml: key 'execution.verbose': unknown to CPE's schema",
        "case 'Fix: the pager' is task Fix_the_pager",
        "tag 'slow-ones' is 'slow_ones'",
        "grader 'named group' (regex): renamed 'named_group'",
        "grader 'skill_fired' (tool_used): input_match matched the whole input as JSON in CPE; "
        "here it matches input.skill",
        "grader 'read_then_edit' (tool_order): CPE passes when the first 'before' call",
        "grader 'fixture_there' (file_exists): fixtures/*.txt matches seeded file(s) (fixtures/data.txt)",
        "grader 'no_todo' (regex): when out/notes.md is missing CPE fails the grader",
        "grader 'on_files' (llm): CPE showed the judge the names of the files",
        "grader 'vs_baseline' (baseline): CPE compared whole trajectories",
        "context.add_dirs 'fixtures': CPE let the agent read it in place; here it is copied",
        "the case's model is sonnet: run with --models sonnet",
        "suite: every task is offered the tools CPE's session is offered with no --allow-tools grant: "
        "Agent, Glob, Grep, Read, Skill, TaskStop, ToolSearch",
        "ponybench compare plugins/main/evals/results/20261201-101010/aggregate-result.json",
    ]:
        assert line in checklist, line
    imported = (folder / "IMPORTED.md").read_text()
    assert "The agent names the off-by-one." in imported and "Model: `sonnet`." in imported
    # Arms: the case names the helper plugin; the prose case names the suite's own.
    assert {n: [p.path for p in ps] for n, ps in done.arms.items()} == {
        "helper": ["plugins/helper"],
        "main_plugin": ["plugins/main"],
    }
    assert 'main_plugin = { plugin = "plugins/main" }' in checklist


def test_the_prose_form_and_its_merge_with_case_yaml(kitchen: Path, tmp_path: Path) -> None:
    done = import_suite(kitchen / "evals", tmp_path / "tasks", cwd=tmp_path)
    folder = tmp_path / "tasks" / "prose_case"  # the front matter's name wins over case.yaml's
    meta = task_toml(folder)
    assert (folder / "prompt.md").read_text() == "Summarise the notes.\n"
    assert {k: v for k, v in meta.items() if k != "graders"} == {
        "kind": "open",
        "description": "Written in prose.",
        "tags": ["prose"],
        "runs": 2,
        "max_turns": 4,
        "cell_timeout": 60,
        # what CPE offers without the two taken away (and ToolSearch, with nothing deferred left)
        "allowed_tools": ["Glob", "Grep", "Read", "Skill"],
        "disallowed_tools": ["TaskStop", "Agent"],  # case.yaml's and the front matter's, joined
        "append_system_prompt": "Reply in English.",
        "env": {"EVAL_LANG_HINT": "en"},
        "judge_runs": 3,
    }
    assert list(graders(folder)) == ["from_yaml", "baseline", "file", "judge", "order", "pattern", "skill"]
    got = graders(folder)
    assert got["pattern"] == {
        "name": "pattern",
        "type": "regex",
        "target": "reply",
        "pattern": "notes?",
        "flags": "i",
    }
    assert got["judge"] == {
        "name": "judge",
        "type": "llm",
        "criteria": "The summary covers every note.",
        "weight": 3.0,
    }
    assert got["order"]["steps"] == [{"tool": "Read"}, {"tool": "Write"}]
    assert got["skill"]["arm"] == "arms-only"
    assert got["baseline"]["reference"] == "references/baseline.md"
    drafted = next(w.draft for w in done.tasks if w.draft.task == "prose_case")
    texts = [i.text for i in drafted.items]
    assert "evals/prose/graders/README.md: no front matter, so not a grader (CPE skips it too)" in texts
    assert any("the case's model is opus" in t for t in texts)


def test_yaml_reads_as_the_cli_reads_it(tmp_path: Path) -> None:
    root = plugin(
        tmp_path / "p",
        evals={
            "c/case.yaml": 'schema_version: "1.0"\nname: c\n'
            "execution: {prompt: hi, env: {EVAL_A: yes, EVAL_B: off}}\n"
            "graders: [{type: file_exists, name: f, path: x, exists: no}]\n"
        },
    )
    with pytest.raises(CaseError) as exc:
        load_case(root / "evals" / "c", root)
    assert exc.value.problems == [
        "evals/c/case.yaml: key 'graders[0].exists' must be true or false, not 'no'"
    ]


def test_scaffold_runs_only_when_allowed_and_seeds_what_it_made(kitchen: Path, tmp_path: Path) -> None:
    import_suite(kitchen / "evals", tmp_path / "tasks", allow_scaffold=True, cwd=tmp_path)
    folder = tmp_path / "tasks" / "Fix_the_pager"
    assert (folder / "seed" / "src" / "app.py").read_text() == "x = 1\n"
    assert (folder / "seed" / "notes.md").read_text() == "hi\n"
    assert not (folder / "seed" / ".git").exists()
    imported = (folder / "IMPORTED.md").read_text()
    assert "run once at import; its 2 file(s) are seed/" in imported
    assert "scaffold_script made a .git: not seeded" in imported
    assert "not run (--allow-scaffold" not in imported


def test_a_failing_scaffold_skips_its_case_and_strict_refuses(kitchen: Path, tmp_path: Path) -> None:
    (kitchen / "evals" / "kitchen" / "setup.sh").write_text("echo broken >&2\nexit 3\n")
    problem = "evals/kitchen/case.yaml: context.scaffold_script exited 3: broken"
    with pytest.raises(CaseError) as exc:
        import_suite(kitchen / "evals", tmp_path / "strict", allow_scaffold=True, strict=True, cwd=tmp_path)
    assert exc.value.problems == [problem]
    assert not (tmp_path / "strict").exists()
    done = import_suite(kitchen / "evals", tmp_path / "tasks", allow_scaffold=True, cwd=tmp_path)
    assert done.skipped == {"evals/kitchen": [problem]}
    assert [w.draft.task for w in done.tasks] == ["prose_case"]
    assert f"  skipped evals/kitchen/: {problem}" in render(done, cwd=tmp_path)


# ---------------------------------------------------------------- malformed suites

CASE = (
    'schema_version: "1.0"\nname: c\nexecution:\n  prompt: Do it.\n'
    "graders:\n  - {type: regex, name: g, pattern: x}\n"
)


@pytest.mark.parametrize(
    ("files", "problem"),
    [
        ({"c/case.yaml": "name: [unclosed"}, "evals/c/case.yaml: not valid YAML"),
        ({"c/case.yaml": "- a\n- b\n"}, "evals/c/case.yaml: must be a YAML mapping"),
        (
            {"c/case.yaml": CASE + "name: twice\n"},
            "evals/c/case.yaml: not valid YAML at line 7: key 'name' is given twice",
        ),
        (
            {"c/case.yaml": CASE.replace('schema_version: "1.0"\n', "")},
            "evals/c/case.yaml: key 'schema_version' is missing",
        ),
        ({"c/case.yaml": CASE.replace('"1.0"', "1.0")}, "key 'schema_version' is missing or not a string"),
        (
            {"c/case.yaml": CASE.replace('"1.0"', '"2.0"')},
            "key 'schema_version' is '2.0'; this import reads schema 1.x",
        ),
        ({"c/case.yaml": CASE.replace("name: c", 'name: ""')}, "evals/c/case.yaml: key 'name' is empty"),
        ({"c/case.yaml": CASE + "runs: 0\n"}, "key 'runs' must be a whole number from 1 to 50, not 0"),
        ({"c/case.yaml": CASE + "runs: 51\n"}, "key 'runs' must be a whole number from 1 to 50, not 51"),
        ({"c/case.yaml": CASE + "tags: smoke\n"}, "key 'tags' must be a list of strings"),
        ({"c/case.yaml": CASE + "plugins: [1]\n"}, "key 'plugins' must be a list of strings"),
        ({"c/case.yaml": CASE + "context: [x]\n"}, "key 'context' must be a mapping"),
        (
            {"c/case.yaml": CASE + "context: {add_dirs: x}\n"},
            "key 'context.add_dirs' must be a list of strings",
        ),
        (
            {"c/case.yaml": CASE.replace("  prompt: Do it.\n", "  prompt: Do it.\n  max_turns: 201\n")},
            "key 'execution.max_turns' must be a whole number from 1 to 200",
        ),
        (
            {"c/case.yaml": CASE.replace("  prompt: Do it.\n", "  prompt: Do it.\n  timeout_seconds: 0\n")},
            "key 'execution.timeout_seconds' must be a whole number from 1 to 3600",
        ),
        (
            {"c/case.yaml": CASE.replace("  prompt: Do it.\n", "  prompt: Do it.\n  env: {A: 1}\n")},
            "key 'execution.env' must be a mapping of NAME: string",
        ),
        (
            {"c/case.yaml": CASE.replace("  prompt: Do it.\n", "  prompt: Do it.\n  model: [a]\n")},
            "key 'execution.model' must be a string",
        ),
        (
            {
                "c/case.yaml": CASE.replace(
                    "  prompt: Do it.\n", "  prompt: Do it.\n  artifact_publish: maybe\n"
                )
            },
            "key 'execution.artifact_publish' must be true or false",
        ),
        (
            {"c/case.yaml": CASE.replace("  prompt: Do it.\n", "  prompt: ' '\n")},
            "key 'execution.prompt' is missing or empty",
        ),
        (
            {"c/case.yaml": CASE.replace("graders:\n  - {type: regex, name: g, pattern: x}\n", "")},
            "evals/c/case.yaml: no grader",
        ),
        ({"c/case.yaml": CASE + "  - {type: regex, name: g, pattern: y}\n"}, "grader name 'g' is used twice"),
        (
            {"c/case.yaml": CASE.replace("type: regex", "type: vibes")},
            "key 'graders[0].type' is 'vibes'; expected one of regex",
        ),
        (
            {"c/case.yaml": CASE.replace("pattern: x", "pattern: x, colour: red")},
            "key 'graders[0].colour' is not a key of a regex grader",
        ),
        (
            {"c/case.yaml": CASE.replace("pattern: x", "pattern: x, flags: q")},
            "key 'graders[0].flags' must be JS RegExp flags",
        ),
        (
            {"c/case.yaml": CASE.replace("pattern: x", "pattern: x, match: 'count:many'")},
            "key 'graders[0].match' must be contains | not_contains | count:N",
        ),
        (
            {"c/case.yaml": CASE.replace("pattern: x", "pattern: x, target: stdout")},
            "key 'graders[0].target' must be one of trace",
        ),
        (
            {"c/case.yaml": CASE.replace("pattern: x", "pattern: x, weight: 0")},
            "key 'graders[0].weight' must be a number > 0",
        ),
        (
            {"c/case.yaml": CASE.replace("pattern: x", "pattern: x, arm: sometimes")},
            "key 'graders[0].arm' must be with-only or both",
        ),
        (
            {"c/case.yaml": CASE.replace("{type: regex, name: g, pattern: x}", "{type: regex, pattern: x}")},
            "key 'graders[0].name' is missing",
        ),
        (
            {
                "c/case.yaml": CASE.replace(
                    "{type: regex, name: g, pattern: x}", "{type: tool_order, name: g, before: Read}"
                )
            },
            "key 'graders[0].after' is missing",
        ),
        (
            {
                "c/case.yaml": CASE.replace(
                    "{type: regex, name: g, pattern: x}", "{type: tool_used, name: g, tool: Read, min: -1}"
                )
            },
            "key 'graders[0].min' must be a whole number >= 0",
        ),
        (
            {
                "c/case.yaml": CASE.replace(
                    "{type: regex, name: g, pattern: x}",
                    "{type: llm, name: g, criteria: 'TODO: describe what a successful response looks like'}",
                )
            },
            "key 'graders[0].criteria' is still the blank `init` template",
        ),
        (
            {
                "c/prompt.md": "---\nmodel: x\ncolour: red\n---\nDo it.\n",
                "c/graders/g.md": "---\ntype: regex\n---\nx\n",
            },
            "evals/c/prompt.md: key 'colour' is not a front-matter key",
        ),
        ({"c/prompt.md": "---\nmodel: x\nDo it.\n"}, "evals/c/prompt.md: unterminated front matter"),
        (
            {"c/prompt.md": "---\n[a, b]\n---\nDo it.\n"},
            "evals/c/prompt.md: the front matter must be a YAML mapping",
        ),
        (
            {"c/prompt.md": "Do it.\n", "c/graders/g.md": "---\nweight: 2\n---\nx\n"},
            "evals/c/graders/g.md: key 'type' is missing from the front matter",
        ),
        (
            {"c/prompt.md": "Do it.\n", "c/graders/g.md": "---\ntype: regex\n---\n"},
            "evals/c/graders/g.md: key 'pattern' is missing",
        ),
        ({"c/prompt.md": "Do it.\n"}, "evals/c/graders/: no grader"),
        (
            {"c/case.yaml": CASE + "plugins: [nowhere]\n"},
            "evals/c/case.yaml: key 'plugins': 'nowhere' is not a plugin folder",
        ),
        (
            {"c/case.yaml": CASE + "context: {add_dirs: [../other]}\n"},
            "key 'context.add_dirs': '../other' must name a folder inside the case",
        ),
        (
            {
                "c/case.yaml": CASE.replace(
                    "{type: regex, name: g, pattern: x}",
                    "{type: baseline, name: g, baseline_file: /etc/passwd, criteria: x}",
                )
            },
            "grader 'g': key 'baseline_file' must be a relative path inside the suite",
        ),
    ],
)
def test_a_malformed_suite_is_refused_naming_the_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: dict[str, str], problem: str
) -> None:
    root = plugin(tmp_path / "p", evals=files)
    out_dir = tmp_path / "tasks"
    with pytest.raises(CaseError) as exc:
        import_suite(root / "evals", out_dir, cwd=tmp_path)
    assert any(problem in p for p in exc.value.problems), exc.value.problems
    assert not out_dir.exists()
    code, out, err = run_cli(capsys, "import-cpe", str(root / "evals"), "-o", str(out_dir))
    assert code == 2 and not out
    assert err.startswith("ponybench: error: the suite is not imported:") and problem in err


def test_cases_cpe_would_not_run_are_skipped_as_cpe_skips_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """claude plugin eval runs the cases it can load and prints a line for each other one (exit 1):
    the import writes the rest and names each skipped case's problems; --strict refuses them all."""
    root = plugin(
        tmp_path / "p",
        evals={
            "a/case.yaml": CASE.replace("name: c", "name: a") + "runs: 0\n",
            "b/case.yaml": CASE.replace("name: c", "name: b").replace("pattern: x", "pattern: x, weight: -1"),
            "env/case.yaml": CASE.replace("name: c", "name: env").replace(
                "  prompt: Do it.\n", "  prompt: Do it.\n  env: {APP_MODE: test}\n"
            ),
            "ok/case.yaml": CASE.replace("name: c", "name: ok"),
        },
    )
    with pytest.raises(CaseError) as exc:
        import_suite(root / "evals", tmp_path / "strict", strict=True, cwd=tmp_path)
    assert [p.split(":")[0] for p in exc.value.problems] == [
        "evals/a/case.yaml",
        "evals/b/case.yaml",
        "evals/env/case.yaml",
    ]
    assert exc.value.problems[0].startswith("evals/a/case.yaml: key 'runs'")
    assert exc.value.problems[1].startswith("evals/b/case.yaml: key 'graders[0].weight'")
    assert "sets 'APP_MODE': only EVAL_* names may be set from a case" in exc.value.problems[2]
    assert not (tmp_path / "strict").exists()
    code, out, err = run_cli(capsys, "import-cpe", str(root / "evals"), "-o", str(tmp_path / "tasks"))
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "tasks").iterdir()) == ["ok"]
    for line in (
        "  skipped evals/a/: evals/a/case.yaml: key 'runs' must be a whole number from 1 to 50, not 0",
        "  skipped evals/b/: evals/b/case.yaml: key 'graders[0].weight' must be a number > 0, not -1",
        "  skipped evals/env/: evals/env/case.yaml: key 'execution.env' sets 'APP_MODE'",
        "  (3 case(s) skipped, as claude plugin eval skips a case it cannot load or run; --strict refuses "
        "the suite instead)",
    ):
        assert any(o.startswith(line) for o in out.splitlines()), line
    code, out, err = run_cli(
        capsys, "import-cpe", str(root / "evals"), "-o", str(tmp_path / "t2"), "--strict"
    )
    assert code == 2 and not out and "key 'runs'" in err and not (tmp_path / "t2").exists()


def test_two_cases_that_would_be_one_task_keep_the_first(tmp_path: Path) -> None:
    root = plugin(
        tmp_path / "p",
        evals={
            "a/case.yaml": CASE.replace("name: c", "name: 'fix it'"),
            "b/case.yaml": CASE.replace("name: c", "name: fix_it"),
        },
    )
    with pytest.raises(CaseError, match="is task fix_it, as is evals/a/case.yaml: rename one"):
        import_suite(root / "evals", tmp_path / "strict", strict=True, cwd=tmp_path)
    done = import_suite(root / "evals", tmp_path / "tasks", cwd=tmp_path)
    assert [w.draft.case.where for w in done.tasks] == ["evals/a/case.yaml"]
    assert list(done.skipped) == ["evals/b"]


def test_what_is_not_a_suite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "import-cpe", str(tmp_path / "nope"))
    assert code == 2 and "nope: no such folder" in err
    (tmp_path / "empty").mkdir()
    code, _, err = run_cli(capsys, "import-cpe", str(tmp_path / "empty"))
    assert code == 2 and "empty: no case (a folder with case.yaml or prompt.md)" in err
    root = plugin(tmp_path / "bare")
    code, _, err = run_cli(capsys, "import-cpe", str(root))
    assert code == 2 and "a plugin without an eval dir" in err


def test_a_case_without_a_plugin_asks_for_the_arm(tmp_path: Path) -> None:
    evals = tmp_path / "evals"
    (evals / "c").mkdir(parents=True)
    (evals / "c" / "case.yaml").write_text(CASE)
    done = import_suite(evals, tmp_path / "tasks", cwd=tmp_path)
    assert done.arms == {}
    assert "give the arm with --arm NAME=plugin:PATH" in render(done, cwd=tmp_path)


def test_the_readme_example_is_real_output(
    careful: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every line of docs/cpe.md's import example (but its `...`) is this command's output."""
    results = careful / "evals" / "results" / "20261201-163919"
    results.mkdir(parents=True)
    shutil.copy(DATA / "results" / "with-without.json", results / "aggregate-result.json")
    command = "ponybench import-cpe careful/evals"
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli(capsys, *command.split()[1:])
    assert code == 0
    printed = out.splitlines()
    for line in doc_example(REPO / "docs" / "cpe.md", command):
        assert line in printed, line


def test_tools_are_what_cpe_offers_and_what_has_no_form_is_listed(tmp_path: Path) -> None:
    case = Case(
        dir=tmp_path,
        source="case_yaml",
        where="evals/x/case.yaml",
        schema_version="1.0",
        name="x",
        prompt="p",
        allowed_tools=("Read", "Glob", "Bash", "mcp__notes__find", "Glob", "Write"),
        disallowed_tools=("Glob", "Write(*.md)", "WebFetch"),
    )
    items: list[Item] = []
    toml = policy_toml(case, items)
    # Glob is taken away by name; a rule refuses calls only, and WebFetch was never offered.
    assert toml["allowed_tools"] == ["Agent", "Grep", "Read", "Skill", "TaskStop", "ToolSearch"]
    assert toml["disallowed_tools"] == ["Glob", "WebFetch"]
    said = {(i.kind, i.text) for i in items}
    assert said == {
        (
            TODO,
            "allowed_tools lists Bash, mcp__notes__find, Write, which CPE offers only when the operator "
            "grants it (claude plugin eval --allow-tools), and so does this task: import with --allow-tools "
            "to mirror a run that granted it (never Bash: no ponybench session is offered a shell)",
        ),
        (
            NOT_IMPORTED,
            "disallowed_tools: 'Write(*.md)' never matches: the CLI's file-writing rules are spelled "
            "Edit(...) (they cover Write)",
        ),
    }
    # The operator's grant (claude plugin eval --allow-tools Write) brings what CPE's brings.
    granted = policy_toml(case, [], grants=["Write"])["allowed_tools"]
    assert granted == [
        "Agent",
        "Edit",
        "Grep",
        "NotebookEdit",
        "Read",
        "Skill",
        "TaskStop",
        "ToolSearch",
        "Write",
    ]


def test_every_cpe_grader_type_has_a_mapping() -> None:
    from pytest_ponybench.cpe import cases, mapping

    assert sorted(mapping.MAPPERS) == sorted(cases.GRADER_TYPES)
