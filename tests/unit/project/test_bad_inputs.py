"""Every bad input is one clear usage error naming the flag, key or file, before any cell and
before collection (no hidden check is ever collected as a test). No claude is needed: the plan
is resolved before the CLI is looked for, and where the CLI matters a stand-in file is named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import one_task_project

TASK = "merge_intervals"


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    """A benchmark project with one task, and a stand-in claude file (never run by these tests)."""
    return one_task_project(pytester.path, TASK, claude_line="printf '\\377\\376 2.1.0 (Claude Code)\\n'")


def write_pyproject(root: Path, body: str, arms: str = "baseline = {}\n") -> None:
    (root / "pyproject.toml").write_text(f"[tool.ponybench]\n{body}\n[tool.ponybench.arms]\n{arms}")


def refused(pytester: pytest.Pytester, *args: str) -> str:
    """Run pytest on the benchmark folder; it must stop with a usage error before any cell."""
    result = pytester.runpytest("benchmarks", "--claude", "./claude", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str() + result.stderr.str()
    out = result.stdout.str() + result.stderr.str()
    assert "test_cell[" not in out and "checks/test_" not in out, out  # nothing collected
    assert "Traceback" not in out, out
    assert not (pytester.path / "runs").exists()
    return out


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("runs = 1.7", "[tool.ponybench] runs in"),
        ("runs = true", "[tool.ponybench] runs in"),
        ('runs = "x"', "[tool.ponybench] runs in"),
        ("runs = 0", "must be from 1 to"),
        ("models = 5", "[tool.ponybench] models in"),
        ('models = ["a", "a"]', "a given more than once"),
        ("cell_timeout = nan", "[tool.ponybench] cell_timeout in"),
        ("budget_usd = inf", "[tool.ponybench] budget_usd in"),
        ("retries = -1", "[tool.ponybench] retries in"),
        ('warmup = "sometimes"', "[tool.ponybench] warmup in"),
        ("colour = 1", "unknown key(s) colour"),
        ('primary = "vibes"', "[tool.ponybench] primary in"),
        ("judge_runs = 0", "[tool.ponybench] judge_runs in"),
    ],
)
def test_a_bad_pyproject_value_names_its_key(
    pytester: pytest.Pytester, project: Path, body: str, said: str
) -> None:
    write_pyproject(project, body)
    assert said in refused(pytester)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--runs", "1.7"], "--runs must be a whole number"),
        (["--runs", "99999999999"], "--runs must be from 1 to 1000"),
        (["--budget-usd", "nan"], "--budget-usd must be a finite number"),
        (["--budget-usd", "0"], "--budget-usd must be more than 0"),
        (["--cell-timeout", "nan"], "--cell-timeout must be a finite number"),
        (["--max-turns", "0"], "--max-turns must be from 1"),
        (["--cell-retries", "two"], "--cell-retries must be a number"),
        (["--models", "x,x"], "--models: x given more than once"),
        (["--models", ","], "give at least one model"),
        (["--arm", "baseline=prompt:X"], "'baseline' (--arm)"),
        (["--arm", "a=prompt:X", "--arm", "a=prompt:Y"], "declared twice"),
        (["--arms", "baseline,ghost"], "unknown arm(s) ghost"),
        (["--ponybench-tasks", "nope/tasks"], "nope/tasks does not exist"),
        (["--resume", "runs/x", "--rescore", "runs/x"], "exclude each other"),
        (["--resume", "nowhere"], "--resume nowhere: no such run dir"),
        (["--claude", "/nonexistent/claude"], "the claude CLI was not found"),
        (["--models", "sonnet"], "no credential was found"),
        (
            ["--until-decided", "--runs", "3"],
            "--until-decided runs until decided, up to --max-runs; drop --runs",
        ),
        (["--max-runs", "4"], "--max-runs and --max-tasks are the stops of --until-decided"),
        (["--until-decided", "--max-runs", "1"], "--max-runs must be from 2"),
        (["--until-decided", "--max-tasks", "x"], "--max-tasks must be a"),
        (["--primary", "happiness"], "--primary: unknown metric"),
        (["--family", "planet"], "--family must be one of model, run"),
        (["--judge-runs", "10"], "--judge-runs must be from 1 to 9"),
        (["--judge-model", ""], "--judge-model must be a non-empty string"),
    ],
)
def test_a_bad_flag_names_itself(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], said: str
) -> None:
    for key in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("HOME", str(project / "home"))  # no logged-in user's credentials file
    assert said in refused(pytester, *args)


def test_an_arm_declared_in_the_table_and_on_the_command_line_is_refused(
    pytester: pytest.Pytester, project: Path
) -> None:
    write_pyproject(project, "", arms='baseline = {}\nmine = { prompt = "be brief" }\n')
    out = refused(pytester, "--arm", "mine=prompt:be long")
    assert "'mine' (--arm): declared twice (also in" in out


def test_a_prompt_that_is_not_utf8_names_the_file(pytester: pytest.Pytester, project: Path) -> None:
    (project / "benchmarks" / "tasks" / TASK / "prompt.md").write_bytes(b"\xff\xfe broken")
    out = refused(pytester)
    assert "prompt.md: not UTF-8 text" in out and TASK in out


def _run_dir(project: Path, run_json: object) -> str:
    path = project / "runs" / "old"
    path.mkdir(parents=True)
    (path / "run.json").write_text(json.dumps(run_json))
    return str(path)


@pytest.mark.parametrize(
    ("run_json", "said"),
    [
        ([1, 2], "run.json is not a JSON object"),
        ({"options": "all", "arms": [{"name": "baseline", "kind": "baseline"}]}, "run.json options: missing"),
        ({"options": {"runs": "x"}, "arms": [{"name": "baseline", "kind": "baseline"}]}, "options.runs"),
        ({"options": {"models": 5}, "arms": [{"name": "baseline", "kind": "baseline"}]}, "options.models"),
        ({"options": {}, "arms": "baseline"}, "run.json arms: lists no arms"),
        ({"options": {}, "arms": [{"kind": "prompt"}]}, "arms[0]: not an arm description"),
        ({"options": {}, "arms": [{"name": "p", "kind": "prompt", "prompt": 3}]}, "arm 'p' is malformed"),
    ],
)
def test_a_malformed_run_json_under_resume_names_the_key(
    pytester: pytest.Pytester, project: Path, run_json: object, said: str
) -> None:
    path = _run_dir(project, run_json)
    result = pytester.runpytest("benchmarks", "--claude", "./claude", "--resume", path)
    out = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR and said in out and "Traceback" not in out, out


def test_a_truncated_run_json_is_named(pytester: pytest.Pytester, project: Path) -> None:
    path = project / "runs" / "old"
    path.mkdir(parents=True)
    (path / "run.json").write_text('{"options": {"mod')
    result = pytester.runpytest("benchmarks", "--claude", "./claude", "--rescore", str(path))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--rescore*run.json is unreadable*"])


def test_an_odd_version_line_is_recorded_not_fatal(pytester: pytest.Pytester, project: Path) -> None:
    """The CLI's version line is provenance: bytes that are not UTF-8 must not stop the run."""
    result = pytester.runpytest("benchmarks", "--claude", "./claude", "-k", "no-such-cell")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED, result.stdout.str()
    run_json = json.loads(next((project / "runs").glob("*/run.json")).read_text())
    assert "2.1.0 (Claude Code)" in run_json["claude_version"]


RESUMED = {
    "options": {"models": ["offline-reference"], "runs": 2, "tasks": [], "arms": ["baseline"]},
    "arms": [{"name": "baseline", "kind": "baseline"}],
}


def test_resume_with_a_different_grid_names_the_flags(pytester: pytest.Pytester, project: Path) -> None:
    path = _run_dir(project, RESUMED)
    args = ["--resume", path, "--models", "offline-flawed", "--runs", "3", "--arm", "x=prompt:hi"]
    result = pytester.runpytest("benchmarks", "--claude", "./claude", *args)
    out = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "test_cell[" not in out, out
    assert "finishes that run's own grid; these differ from it:" in out
    assert "--models offline-flawed, --runs 3, --arm x=prompt:hi" in out
    assert not (Path(path) / "results.jsonl").exists()  # nothing ran


def test_resume_with_the_run_s_own_grid_flags_goes_on(pytester: pytest.Pytester, project: Path) -> None:
    path = _run_dir(project, RESUMED)
    result = pytester.runpytest(
        "benchmarks",
        "--claude",
        "./claude",
        "--resume",
        path,
        "--models",
        "offline-reference",
        "--runs",
        "2",
        "--collect-only",
        "-q",
    )
    assert result.ret == pytest.ExitCode.OK, result.stdout.str() + result.stderr.str()
    result.stdout.fnmatch_lines(["*test_cell*merge_intervals-baseline-offline-reference-r1*"])


def test_a_claude_md_arm_is_refused_with_a_task_that_seeds_one(
    pytester: pytest.Pytester, project: Path
) -> None:
    # Memory is turned on for that arm only: the task's own CLAUDE.md would be read under it alone.
    (project / "benchmarks" / "tasks" / TASK / "seed").mkdir()
    (project / "benchmarks" / "tasks" / TASK / "seed" / "CLAUDE.md").write_text("Use tabs.\n")
    (project / "house").mkdir()
    (project / "house" / "CLAUDE.md").write_text("Keep functions short.\n")
    out = refused(pytester, "--arm", "md=claude-md:house/CLAUDE.md@user")
    assert f"arm 'md' places a CLAUDE.md and turns memory on, but task {TASK} seeds CLAUDE.md" in out
    assert "--tasks" in out


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("x=prompt:a+prompt:b", "arm 'x' (--arm): gives prompt more than once"),
        ("x=skills:nowhere", "arm 'x' (--arm): skills folder"),
        ("x=mcp:pyproject.toml", "arm 'x' (--arm): * is not valid JSON"),
    ],
)
def test_a_bad_arm_part_is_a_usage_error(
    pytester: pytest.Pytester, project: Path, spec: str, said: str
) -> None:
    out = refused(pytester, "--arm", spec)
    head, _, rest = said.partition("*")
    assert head in out and rest in out, out


def test_a_tasks_own_runs_set_its_cells_unless_runs_is_given(
    pytester: pytest.Pytester, project: Path
) -> None:
    toml = project / "benchmarks" / "tasks" / TASK / "task.toml"
    toml.write_text(toml.read_text() + "runs = 3\n")

    def cells(*args: str) -> list[str]:
        result = pytester.runpytest(
            "benchmarks",
            "--claude",
            "./claude",
            "--collect-only",
            "-q",
            "--models",
            "offline-reference",
            *args,
        )
        assert result.ret == pytest.ExitCode.OK, result.stdout.str()
        return sorted(line.split("[", 1)[1].rstrip("]") for line in result.outlines if "test_cell[" in line)

    assert cells() == [f"{TASK}-baseline-offline-reference-r{r}" for r in range(3)]
    assert cells("--runs", "1") == [f"{TASK}-baseline-offline-reference-r0"]
    write_pyproject(project, "runs = 2")  # a project default is a default: the task's own wins
    assert len(cells()) == 3


@pytest.mark.parametrize("source", ["flag", "pyproject"])
def test_the_offline_judge_of_a_live_model_is_refused(
    pytester: pytest.Pytester, project: Path, source: str
) -> None:
    """By flag or by pyproject key: the offline judge would pass a live agent's directive."""
    given = ["--judge-model", "offline-judge"] if source == "flag" else []
    if source == "pyproject":
        write_pyproject(project, 'judge_model = "offline-judge"')
    out = refused(pytester, "--models", "offline-reference,sonnet", *given)
    assert "--judge-model offline-judge (or pyproject judge_model)" in out
    assert "include the live model(s) sonnet." in out
