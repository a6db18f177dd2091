"""The shipped graded tasks end to end: the offline agents make each reference's declared tool
calls and say its reply through the real CLI, exactly as the selftest assumes; the selftest
proves every grader (and names the one a broken declaration breaks); an offline grid's kept
cells, graded, give the outcomes the references declare."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pytest_ponybench.agents import launch
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.claude import ClaudeCode
from pytest_ponybench.agents.install import sealed
from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import BASELINE, Arm
from pytest_ponybench.core.graders import CellEvidence, grade_cell, record_fields
from pytest_ponybench.core.judge import judge_in_process
from pytest_ponybench.core.tasks import Task, load_task, load_tasks
from pytest_ponybench.core.transcript import Transcript
from pytest_ponybench.gateway.server import shared
from pytest_ponybench.gateway.upstream import Upstream
from pytest_ponybench.offline.endpoint import session_of
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.plan.reference_proofs import lay_reference, offline_calls
from pytest_ponybench.scoring import diff
from pytest_ponybench.scoring.workspace import lay, snapshot
from pytest_ponybench.store.celldir import CellDir
from tests.support import CLAUDE, REPO, records, run_dirs

pytestmark = pytest.mark.needs_claude

GRADED = sorted(p.name for p in (REPO / "benchmarks" / "tasks").iterdir() if p.name.startswith("graded_"))


@pytest.fixture(scope="module")
def server() -> Iterator[OfflineServer]:
    with OfflineServer() as srv:
        yield srv


# The plugin a task that expects a plugin to fire is run with (its skill exists there).
CAREFUL = Arm("careful", (Part("plugin", path=REPO / "examples" / "careful-plugin"),))


def session(
    server: OfflineServer, task: Task, model: str, root: Path, arm: Arm = BASELINE
) -> tuple[Transcript, Path]:
    """One cell's session as the harness runs it (command, environment, confinement, the arm's
    files); returns (its stream, its workspace)."""
    assert CLAUDE is not None
    ws, home = root / "ws", root / "home"
    lay(task, ws)  # the seed alone: the agent writes the reference itself
    arm = sealed(arm)  # the plugin's folder as a cell gets it: a copy
    ClaudeCode().install(arm, ws, home)
    snapshot(ws, keep=root / "base.git")  # the harness's copy of the base, as in a cell
    cell_id = f"{task.id}-{model}"
    server.register(
        cell_id,
        CellScript(
            ws.resolve(),
            task.good,
            task.bad,
            root / "requests.jsonl",
            good_session=session_of(task.good_meta),
            bad_session=session_of(task.bad_meta),
        ),
    )
    cli = ClaudeCode()
    spec = SessionSpec(
        prompt=task.prompt, model=model, home=home, max_turns=20, offline=True, api_timeout_ms=20_000
    )
    ticket = shared().open(cell_id, Upstream(server.cell_url(cell_id)))
    prepared = launch.prepare(
        cli, cli.command(CLAUDE, spec, arm), spec, ticket=ticket, workspace=ws, readable=arm.readable()
    )
    stream = root / "claude.jsonl"
    ran = launch.run(cli, prepared, workspace=ws, stream=stream, stderr=root / "stderr", timeout_s=120)
    shared().close(ticket)
    server.unregister(cell_id)
    assert ran.error is None and ran.tampered is None, (root / "stderr").read_text()
    return ran.transcript, ws


@pytest.mark.parametrize("model", ["offline-reference", "offline-flawed"])
@pytest.mark.parametrize("task_id", GRADED)
def test_offline_agents_make_the_declared_calls_and_say_the_declared_reply(
    server: OfflineServer, tmp_path: Path, task_id: str, model: str
) -> None:
    task = load_task(REPO / "benchmarks" / "tasks" / task_id, REPO / "fixtures")
    ref = task.references[0 if model == "offline-reference" else 1]
    # A task that expects a plugin to fire runs with one that has its skill: a declared Skill
    # call then succeeds, as the selftest assumes.
    arm = CAREFUL if task.expect_fire is not None else BASELINE
    transcript, ws = session(server, task, model, tmp_path / "cell", arm)
    evidence = CellEvidence.from_transcript(
        transcript, ws, prompt=task.prompt, base=lambda: diff.base_tree(ws, tmp_path / "cell" / "base.git")
    )

    # What the selftest grades as this reference is what the agent did through the real CLI.
    seed = tmp_path / "seed"
    before = lay_reference(task, ref, seed)
    wanted = offline_calls(ws, before, ref.files, session_of(ref.meta))
    made = [(c.tool, dict(c.input or {})) for c in evidence.tool_calls]
    assert [tool for tool, _ in made] == [tool for tool, _ in wanted]
    for (_, got), (_, want) in zip(made, wanted, strict=True):
        # the CLI records what was sent, plus defaults it fills in (Edit's replace_all: false)
        assert {k: got.get(k) for k in want} == want
    assert all(c.succeeded for c in evidence.tool_calls), [(c.tool, c.result) for c in evidence.tool_calls]
    assert ref.meta.reply is not None and evidence.reply == ref.meta.reply
    for rel, data in ref.files.items():
        assert (ws / rel).read_bytes() == data, rel

    outcomes = grade_cell(task, evidence, judge_in_process, live_judge=False)
    assert {o.name: o.passed for o in outcomes} == dict(ref.meta.graders)
    fields = record_fields(evidence, outcomes)
    json.dumps(fields)
    assert fields["reply"] == ref.meta.reply and len(fields["tool_calls"]) == len(wanted)
    counted = [o for o in outcomes if o.arm == "all"]
    if counted:
        assert fields["score"] == pytest.approx(
            sum(o.weight for o in counted if o.passed) / sum(o.weight for o in counted)
        )
    else:
        assert fields["score"] is None  # the skill task's only grader is arms-only


# ---------------------------------------------------------------- through pytest


def test_the_selftest_proves_the_graded_tasks(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=GRADED)
    tasks = load_tasks(root / "benchmarks" / "tasks", root / "fixtures")
    n_refs = sum(len(t.references) for t in tasks)
    result = pytester.runpytest_subprocess("--selftest-only", "-n", "2", "-v")
    # every reference, the 3 instrument checks and each task's contract table
    result.assert_outcomes(passed=n_refs + 3 + len(tasks))
    result.stdout.fnmatch_lines(
        [
            "*= ponybench selftest: references per task =*",
            "graded_explain_yield_teardown: 6 refs (3 correct, 3 safe+incorrect); 6/6 as declared; "
            "mutants * killed (*); contract 5 rows (*); 4 graders, 24/24 outcomes as declared",
            "  judge graders, references right (offline judge): explains_teardown 6/6",
            "graded_reference_pager_bug: 5 refs (*); 5/5 as declared; mutants *; contract *; "
            "4 graders, 20/20 outcomes as declared",
            "  judge graders, references right (offline judge): matches_reference 5/5",
            "graded_skill_parse_port: 10 refs (*); 10/10 as declared; mutants *; blind flawed caught 4/4; "
            "contract *; 1 grader, 6/6 outcomes as declared",
            "graded_workflow_slug_tests: 11 refs (*); 11/11 as declared; mutants *; blind flawed caught 4/4; "
            "contract *; 5 graders, 35/35 outcomes as declared",
            f"4 tasks, {n_refs} references (*); {n_refs}/{n_refs} as declared; blind flawed caught 8/8; "
            "0 task(s) flagged",
        ]
    )
    assert "BELOW MINIMUM" not in result.stdout.str()


def test_a_wrong_declaration_fails_naming_task_reference_and_grader(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["graded_workflow_slug_tests", "graded_explain_yield_teardown"])
    slug = root / "benchmarks" / "tasks" / "graded_workflow_slug_tests" / "refs" / "lucky_guess" / "ref.toml"
    slug.write_text(slug.read_text().replace("read_tests_first = false", "read_tests_first = true"))
    # a judge reference whose directive disagrees with its declaration: the judge gets it wrong
    explain = (
        root / "benchmarks" / "tasks" / "graded_explain_yield_teardown" / "refs" / "no_example" / "ref.toml"
    )
    explain.write_text(explain.read_text().replace("ponybench-judge: pass", "ponybench-judge: fail"))
    two = load_tasks(root / "benchmarks" / "tasks", root / "fixtures")
    result = pytester.runpytest_subprocess("--selftest-only", "-vv")
    # every reference but the two made wrong, the 3 instrument checks, each task's contract table
    result.assert_outcomes(passed=sum(len(t.references) for t in two) - 2 + 3 + len(two), failed=2)
    result.stdout.fnmatch_lines(
        [
            "FAILED selftest::graded_workflow_slug_tests?lucky_guess? - task graded_workflow_slug_tests: "
            "reference lucky_guess (refs/lucky_guess/): grader read_tests_first (tool_order) fails, but the "
            "reference declares it must pass: step 1 of 2, Read with file_path ~ *, has no successful call*",
        ]
    )
    out = result.stdout.str()
    assert (
        "reference no_example (refs/no_example/, expect 'correct, safe') fails on correct: "
        "grader explains_teardown (llm)" in out
    )
    assert "grader explains_teardown (llm) fails, but the reference declares it must pass" in out
    result.stdout.fnmatch_lines(["  judge graders, references right (offline judge): explains_teardown 5/6"])


def test_an_offline_grid_of_the_graded_tasks(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    """Checks, regex, tool_order, tool_used and judge graders in one run through the real CLI:
    the record carries each grader's outcome as the references declare it, the axes combine
    checks and graders, the judge is asked three times and agrees with itself, and its cost is
    the record's and the budget's."""
    root = bench_project(tasks=GRADED)
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference,offline-flawed",
        "--judge-runs",
        "3",
        "-p",
        "no:cacheprovider",
    )
    run_dir = run_dirs(root)[0]
    recs = records(run_dir)
    assert len(recs) == 2 * len(GRADED), result.stdout.str()[-3000:]
    tasks = {t.id: t for t in load_tasks(root / "benchmarks" / "tasks", root / "fixtures")}
    for rec in recs:
        assert rec["valid"], rec
        task = tasks[rec["task"]]
        meta = task.good_meta if rec["model"] == "offline-reference" else task.bad_meta
        want = dict(meta.graders)
        graded = {g["name"]: g for g in rec["graders"]}
        if want.get("review_skill_fired"):
            # The baseline has no careful-review skill: the reference's Skill call fails
            # (`Unknown skill`) and fires nothing, whatever the reference declares of a plugin arm.
            want["review_skill_fired"] = False
            assert "Unknown skill" in graded["review_skill_fired"]["explanation"], graded
            assert rec["skills_used"] == [], rec["skills_used"]
        assert {name: g["passed"] for name, g in graded.items()} == want, rec["cell_id"]
        judged = [g for g in rec["graders"] if g["type"] in ("llm", "llm_reference")]
        for g in judged:
            assert g["agreement"] == 1.0 and len({r["run"] for r in g["runs"]}) == 3, g
        assert (rec["judge_cost_usd"] > 0) == bool(judged), rec["cell_id"]
        assert isinstance(rec["tool_calls"], list) and rec["reply"].strip(), rec["cell_id"]
        if rec["model"] == "offline-reference":
            assert rec["correct"] and rec["safe"], (rec["cell_id"], rec["reason"])
        else:
            assert rec[task.axis] is False, rec["cell_id"]
            assert "grader" in rec["reason"] or rec["checks"], rec["reason"]
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()[-3000:]
    result.assert_outcomes(passed=len(GRADED), xfailed=len(GRADED))
    out = result.stdout.str()
    header = next(line for line in out.splitlines() if line.strip().startswith("arm"))
    assert "score" in header.split()
    result.stdout.fnmatch_lines(["judge self-agreement of explains_teardown: 100% *over 2 cell(s)*"])
    # The ledger counts the judge's dollars with the agent's.
    spent = json.loads((run_dir / "spend.json").read_text())["spent_usd"]
    assert spent == pytest.approx(sum(r["cost_usd"] + r["judge_cost_usd"] for r in recs), rel=1e-6)


def test_visible_tests_rewritten_through_an_odd_path_fail_the_cell_on_correct(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    """offline-flawed plays bad/, here correct code whose declared calls rewrite the visible
    tests as `tests/./test_slug.py` through the real CLI's Write: the hidden checks pass, and
    both "tests untouched" graders (the tool call placed, the diff against the base) fail the
    cell on its axis."""
    root = bench_project(tasks=["graded_workflow_slug_tests"])
    folder = root / "benchmarks" / "tasks" / "graded_workflow_slug_tests"
    rewritten = 'from slug import slugify\n\n\ndef test_slugify():\n    assert slugify("Hello World")\n'
    (folder / "bad" / "slug.py").write_bytes((folder / "good" / "slug.py").read_bytes())
    (folder / "bad" / "ref.toml").write_text(
        'note = "correct code; the visible tests rewritten through an odd spelling of their path"\n'
        "tool_calls = [\n"
        '  { tool = "Read", input = { file_path = "tests/test_slug.py" } },\n'
        '  { tool = "Write", input = { file_path = "tests/./test_slug.py", '
        f"content = {json.dumps(rewritten)} }} }},\n"
        "]\n"
        "graders = { read_tests_first = true, tests_untouched = false, tests_unchanged = false, "
        "added_tests = false, no_debug_prints = true }\n"
    )
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "0", "--models", "offline-flawed", "-p", "no:cacheprovider"
    )
    run_dir = run_dirs(root)[0]
    (rec,) = records(run_dir)
    assert rec["valid"], rec
    odd = [c["input"]["file_path"] for c in rec["tool_calls"] if c["tool"] == "Write"]
    assert [p for p in odd if "test_slug" in p] == [odd[0]] and odd[0].endswith("/tests/./test_slug.py"), odd
    outcomes = {g["name"]: g for g in rec["graders"]}
    assert outcomes["tests_untouched"]["passed"] is False
    assert "tests/./test_slug.py (= tests/test_slug.py)" in outcomes["tests_untouched"]["explanation"]
    assert outcomes["tests_unchanged"]["passed"] is False
    assert "tests/test_slug.py modified" in outcomes["tests_unchanged"]["explanation"]
    assert rec["correct"] is False and rec["safe"] is True
    assert "grader tests_unchanged (files_unchanged) failed" in rec["reason"], rec["reason"]
    assert "grader tests_untouched (tool_absent) failed" in rec["reason"], rec["reason"]
    assert not rec["checks"] or all(c.get("outcome") == "passed" for c in rec["checks"]), rec["checks"]
    kept = CellDir(run_dir / "cells" / rec["cell_id"]).workspace / "tests" / "test_slug.py"
    assert kept.read_text() == rewritten  # the CLI really wrote it
    result.assert_outcomes(xfailed=1)
