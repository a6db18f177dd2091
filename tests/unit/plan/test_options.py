"""The option table (plan/options.OPTIONS) is what pytest, the settings, run.json and --resume
see: every row's flag is in `pytest --help` with its help, every key is read from pyproject.toml
and from the ini options, every recorded option reaches run.json's options, and a resume refuses
a change of every option fixed on resume. Each test lists a value per row and checks that its
list and the table name the same options, so a new row cannot go untested."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.plan import options as cfg
from pytest_ponybench.plan import previous
from pytest_ponybench.roles import planner as plan_mod
from pytest_ponybench.roles.settings import load_settings, requested_mode
from pytest_ponybench.store.results import RunDir
from pytest_ponybench.store.runinfo import RunInfo
from tests.support import one_task_project

TASK = "merge_intervals"


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    return one_task_project(pytester.path, TASK, claude_line="printf '2.1.0 (Claude Code)\\n'")


def flat(text: str) -> str:
    """The words alone: argparse wraps help at spaces and at hyphens ("prompt-\nfile:PATH"), where
    it breaks depends on pytest's version, so no whitespace is compared."""
    return "".join(text.split())


def test_every_flag_and_ini_key_is_in_help_with_one_text(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    assert result.ret == pytest.ExitCode.OK
    out = result.stdout.str()
    text = flat(out)
    for row in cfg.OPTIONS:
        said = flat(row.help)
        if row.flag is not None:
            assert f"\n  {cfg.long_name(row.flag)}" in out, row.flag
            if cfg.long_name(row.flag) != row.flag:
                assert flat(f"{said} [also {row.flag} where no other plugin uses it]") in text, row.flag
        if row.key is not None:
            # The ini option says what the flag says: one description, two places.
            assert flat(f"{cfg.INI_PREFIX}{row.key} (string): {said} (the command line wins)") in text, (
                row.key
            )
    assert text.count(flat(cfg.HELP[cfg.OPT_RUNS])) == 2


def test_help_lists_the_grid_then_the_spend_then_the_output_then_the_modes(pytester: pytest.Pytester) -> None:
    out = pytester.runpytest("--help").stdout.str()
    titles = [out.index(f"\n{title}:\n") for _, title in cfg.SECTIONS.values()]
    assert titles == sorted(titles), "the groups are out of order"
    where = {row.flag: out.index(f"\n  {cfg.long_name(row.flag)}") for row in cfg.OPTIONS if row.flag}
    grid = [cfg.OPT_MODELS, cfg.OPT_RUNS, cfg.OPT_TASKS, cfg.OPT_ARMS]
    assert [where[f] for f in grid] == sorted(where[f] for f in grid)
    # Each option under its own group's title: the grid before the first spend title, and so on.
    assert max(where[f] for f in grid) < titles[1] < where[cfg.OPT_BUDGET] < titles[2] < where[cfg.OPT_OUT]
    assert titles[3] < where[cfg.OPT_DRY_RUN] and titles[3] < where[cfg.OPT_RESCORE]


def test_the_arm_help_names_every_arm_kind(pytester: pytest.Pytester) -> None:
    from pytest_ponybench.core.armparts import SPEC_KINDS

    text = flat(pytester.runpytest("--help").stdout.str())
    said = text.split(flat(cfg.long_name(cfg.OPT_ARM) + "=NAME=KIND:VALUE"), 1)[1].split("[also", 1)[0]
    assert [k for k in SPEC_KINDS if k not in said] == []
    assert len(SPEC_KINDS) == 9


# key -> (its TOML value, its ini value, the setting it gives); a path is under the project root.
KEYS: dict[str, tuple[str, str, Any]] = {
    "models": (
        '["offline-flawed", "offline-reference"]',
        "offline-flawed,offline-reference",
        ("offline-flawed", "offline-reference"),
    ),
    "agents": ('["claude", "copilot"]', "claude,copilot", ("claude", "copilot")),
    "runs": ("3", "3", 3),
    "tasks": ('"bench/tasks"', "bench/tasks", Path("bench/tasks")),
    "fixtures": ('"fx"', "fx", Path("fx")),
    "max_runs": ("4", "4", 4),
    "budget_usd": ("12.5", "12.5", 12.5),
    "max_budget_usd": ("0.5", "0.5", 0.5),
    "cell_timeout": ("60", "60", 60.0),
    "max_turns": ("7", "7", 7),
    "retries": ("2", "2", 2),
    "stop_after_invalid": ("0", "0", 0),
    "warmup": ('"off"', "off", "off"),
    "judge_model": ('"offline-judge"', "offline-judge", "offline-judge"),
    "judge_runs": ("3", "3", 3),
    "claude": ('"./claude"', "./claude", "./claude"),
    "offline_latency": ("1.5", "1.5", 1.5),
    "max_workspace_mb": ("8", "8", 8),
    "max_workspace_files": ("100", "100", 100),
    "out": ('"results"', "results", Path("results")),
    "primary": ('"score"', "score", "score"),
    "family": ('"run"', "run", "run"),
    "direction": ('"better"', "better", "better"),
}


def test_the_key_list_is_the_table_s() -> None:
    assert set(KEYS) == set(cfg.KEYED) == set(cfg.DEFAULTS)


def _settings_of(pytester: pytest.Pytester, *args: str) -> cfg.Settings:
    return load_settings(pytester.parseconfig("benchmarks", *args))


def _check(settings: cfg.Settings, root: Path, key: str, expected: Any) -> None:
    row = cfg.KEYED[key]
    got = settings.runs if key == "max_runs" else getattr(settings, str(row.setting))
    assert got == (root / expected if isinstance(expected, Path) else expected), key


@pytest.mark.parametrize("source", ["pyproject", "ini"])
def test_every_key_is_read_from_pyproject_and_from_the_ini_options(
    pytester: pytest.Pytester, project: Path, source: str
) -> None:
    if source == "pyproject":
        body = "".join(f"{k} = {toml}\n" for k, (toml, _, _) in KEYS.items())
        (project / "pyproject.toml").write_text(
            f"[tool.ponybench]\n{body}[tool.ponybench.arms]\nbaseline = {{}}\n"
        )
        args: list[str] = []
    else:
        args = [a for k, (_, ini, _) in KEYS.items() for a in ("-o", f"{cfg.INI_PREFIX}{k}={ini}")]
    settings = _settings_of(pytester, *args)
    for key, (_, _, expected) in KEYS.items():
        if key != "max_runs":  # the runs of --until-decided only
            _check(settings, project, key, expected)
    # The sequential design is two-sided: a declared direction is overridden for it here.
    sequential = _settings_of(pytester, *args, "--until-decided", "--direction", "two-sided")
    _check(sequential, project, "max_runs", 4)
    with pytest.raises(PonybenchError, match="--direction better: the sequential design of --until-decided"):
        _settings_of(pytester, *args, "--until-decided")


def test_the_flag_wins_over_the_ini_option_which_wins_over_pyproject(
    pytester: pytest.Pytester, project: Path
) -> None:
    (project / "pyproject.toml").write_text("[tool.ponybench]\nruns = 2\nretries = 3\nmax_turns = 4\n")
    settings = _settings_of(pytester, "-o", "ponybench_runs=5", "-o", "ponybench_retries=6", "--runs", "7")
    assert (settings.runs, settings.retries, settings.max_turns) == (7, 6, 4)


def test_an_option_s_environment_variable_sits_between_the_flag_and_the_ini_option(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No shipped option reads one yet: a row given one is read by the same resolution.
    rows = tuple(replace(o, env="PONYBENCH_TEST_RETRIES") if o.key == "retries" else o for o in cfg.OPTIONS)
    monkeypatch.setattr(cfg, "OPTIONS", rows)
    monkeypatch.setattr(cfg, "ROWS", {o.flag: o for o in rows if o.flag is not None})
    monkeypatch.setenv("PONYBENCH_TEST_RETRIES", "4")
    assert _settings_of(pytester, "-o", "ponybench_retries=6").retries == 4
    assert _settings_of(pytester, "--cell-retries", "2").retries == 2
    monkeypatch.setenv("PONYBENCH_TEST_RETRIES", "x")
    with pytest.raises(PonybenchError, match="environment variable PONYBENCH_TEST_RETRIES must be a number"):
        _settings_of(pytester)


# run.json options key -> (the flags that set it, the value recorded).
RECORDED: dict[str, tuple[tuple[str, ...], Any]] = {
    "models": (("--models", "offline-flawed,offline-reference"), ["offline-flawed", "offline-reference"]),
    "agents": (("--agents", "claude"), ["claude"]),
    "runs": (("--runs", "2"), 2),
    "tasks": (("--tasks", TASK), [TASK]),
    "arms": (("--arms", "baseline,hi", "--arm", "hi=prompt:hello"), ["baseline", "hi"]),
    "budget_usd": (("--budget-usd", "5"), 5.0),
    "max_budget_usd": (("--max-budget-usd", "0.5"), 0.5),
    "cell_timeout": (("--cell-timeout", "60"), 60.0),
    "max_turns": (("--max-turns", "7"), 7),
    "retries": (("--cell-retries", "2"), 2),
    "judge_model": (("--judge-model", "offline-judge"), "offline-judge"),
    "judge_runs": (("--judge-runs", "3"), 3),
    "primary": (("--primary", "score"), "score"),
    "family": (("--family", "run"), "run"),
    "direction": (("--direction", "better"), "better"),
}
SEQUENTIAL = {  # --until-decided takes no --runs: these are recorded from a run of their own
    "until_decided": (("--until-decided", "--max-runs", "4"), True),
    "max_tasks": (("--max-tasks", "3"), 3),
}


def test_the_recorded_list_is_the_table_s() -> None:
    assert set(RECORDED) | set(SEQUENTIAL) == {o.record for o in cfg.RECORDED}


def _recorded(pytester: pytest.Pytester, table: dict[str, tuple[tuple[str, ...], Any]]) -> dict[str, Any]:
    args = [a for flags, _ in table.values() for a in flags]
    config = pytester.parseconfig("benchmarks", "--claude", "./claude", *args)
    requested = requested_mode(config)
    assert requested is not None
    plan = plan_mod.resolve(config, *requested)
    options = json.loads(json.dumps(plan.provenance("2.1.0 (Claude Code)").to_json()))["options"]
    assert isinstance(options, dict)
    return options


def test_every_recorded_option_reaches_run_json(pytester: pytest.Pytester, project: Path) -> None:
    for table in (RECORDED, SEQUENTIAL):
        options = _recorded(pytester, table)
        for key, (_, value) in table.items():
            assert options[key] == value, key


def test_run_json_names_the_judge_asked_when_none_is_given(pytester: pytest.Pytester, project: Path) -> None:
    options = _recorded(pytester, {"models": (("--models", "offline-reference"), None)})
    assert (options["judge_model"], options["judge_runs"]) == (cfg.OFFLINE_JUDGE, 1)


RUN_OPTIONS = {"models": ["offline-reference"], "runs": 2, "tasks": [], "arms": ["baseline"]}
RUN_JSON = {"options": RUN_OPTIONS, "arms": [{"name": "baseline", "kind": "baseline"}]}
# flag fixed on resume -> a value other than the run's.
CHANGED = {
    "--models": "offline-flawed",
    "--agents": "claude,copilot",
    "--runs": "3",
    "--tasks": "quick",
    "--arms": "other",
    "--arm": "x=prompt:hi",
}


def test_the_fixed_list_is_the_table_s() -> None:
    assert set(CHANGED) == {o.flag for o in cfg.OPTIONS if o.resume is cfg.Resume.FIXED}


def _old_run(project: Path, run_json: dict[str, Any]) -> str:
    path = project / "runs" / "old"
    path.mkdir(parents=True)
    (path / "run.json").write_text(json.dumps(run_json))
    return str(path)


@pytest.mark.parametrize("flag", sorted(CHANGED))
def test_a_resume_refuses_a_change_of_each_fixed_option(
    pytester: pytest.Pytester, project: Path, flag: str
) -> None:
    path = _old_run(project, RUN_JSON)
    result = pytester.runpytest("benchmarks", "--claude", "./claude", "--resume", path, flag, CHANGED[flag])
    out = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "Traceback" not in out, out
    assert f"these differ from it: {flag} {CHANGED[flag]}." in out
    assert not (Path(path) / "results.jsonl").exists()


# run.json options key -> (the run's value, the command line's, the setting the resume gets).
RESUMED = {
    "cell_timeout": (60.0, ("--cell-timeout", "90"), 60.0),
    "max_turns": (7, ("--max-turns", "9"), 7),
    "primary": ("score", ("--primary", "cost"), "score"),
    "family": ("run", ("--family", "model"), "run"),
    "direction": ("better", ("--direction", "two-sided"), "better"),
    "until_decided": (True, (), True),
    "max_tasks": (3, (), 3),
}


def test_a_resume_takes_the_run_s_value_of_each_option_it_keeps(
    pytester: pytest.Pytester, project: Path
) -> None:
    kept = {o.record for o in cfg.RECORDED if o.resume is cfg.Resume.RUN}
    assert set(RESUMED) == kept
    args = [a for _, flags, _ in RESUMED.values() for a in flags]
    settings = _settings_of(pytester, *args)
    run_dir = RunDir(project / "runs" / "old")
    options = {**RUN_OPTIONS, **{k: then for k, (then, _, _) in RESUMED.items()}}
    info = RunInfo.from_json({**RUN_JSON, "options": options})
    resumed = previous.resumed_settings(settings, info, run_dir)
    for key, (_, _, expected) in RESUMED.items():
        row = next(o for o in cfg.RECORDED if o.record == key)
        assert getattr(resumed, str(row.setting)) == expected, key
    assert (resumed.runs, resumed.models) == (2, ("offline-reference",))


def test_a_resume_given_the_run_s_own_values_in_another_order_goes_on(
    pytester: pytest.Pytester, project: Path
) -> None:
    options = {"models": ["offline-flawed", "offline-reference"], "runs": 2, "tasks": [TASK, "quick"]}
    arms = [{"name": "baseline", "kind": "baseline"}, {"name": "hi", "kind": "prompt", "prompt": "hello"}]
    path = _old_run(project, {"options": {**options, "arms": ["baseline", "hi"]}, "arms": arms})
    same = {
        "--models": "offline-reference,offline-flawed",
        "--agents": "claude",  # a run dir from before --agents ran claude alone
        "--runs": "2",
        "--tasks": f"quick,{TASK}",
        "--arms": "hi,baseline",
        "--arm": "hi=prompt:hello",
    }
    assert set(same) == set(CHANGED)
    args = [a for flag, value in same.items() for a in (flag, value)]
    result = pytester.runpytest(
        "benchmarks", "--claude", "./claude", "--resume", path, *args, "--collect-only", "-q"
    )
    assert result.ret == pytest.ExitCode.OK, result.stdout.str() + result.stderr.str()
    result.stdout.fnmatch_lines([f"*test_cell*{TASK}-hi-offline-flawed-r1*"])
