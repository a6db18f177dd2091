"""Settings: `[tool.ponybench]` in pyproject.toml, overridden by command-line options.

Resolved once per session (CLI > pyproject > default) so every module reads one object.
"""

from __future__ import annotations

import enum
import importlib.util
import math
import os
import shutil
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench._util.paths import SUITE, SUITE_FIXTURES, SUITE_TASKS
from pytest_ponybench.core.names import model_problem
from pytest_ponybench.core.shards import OPT_SHARD as SHARD_FLAG
from pytest_ponybench.core.shards import Shard, parse_shard
from pytest_ponybench.errors import PonybenchError

__all__ = [
    "DEFAULTS",
    "HELP",
    "INI_PREFIX",
    "MAX_CELLS",
    "MAX_RETRIES",
    "MAX_RUNS",
    "MAX_SECONDS",
    "MAX_TURNS",
    "MAX_USD",
    "Mode",
    "OPT_ALLOW_UNCONFINED",
    "OPT_ARM",
    "OPT_ARMS",
    "OPT_BUDGET",
    "OPT_CELL_BUDGET",
    "OPT_CELL_TIMEOUT",
    "OPT_CLAUDE",
    "OPT_DRY_RUN",
    "OPT_MAX_TURNS",
    "OPT_MAX_WS_FILES",
    "OPT_MAX_WS_MB",
    "OPT_MODELS",
    "OPT_NO_REPORT",
    "OPT_OFFLINE_LATENCY",
    "OPT_OUT",
    "OPT_PREFLIGHT",
    "OPT_RESCORE",
    "OPT_RESUME",
    "OPT_RETRIES",
    "OPT_RUNS",
    "OPT_SELFTEST",
    "OPT_SHARD",
    "OPT_SKIP_PREFLIGHT",
    "OPT_STOP_AFTER",
    "OPT_TASKS",
    "OPT_TASKS_DIR",
    "OPT_WARMUP",
    "Settings",
    "add_options",
    "alias_short_names",
    "arg_paths",
    "builtin_suite",
    "count",
    "dest",
    "dollars",
    "given_by_user",
    "load_settings",
    "long_name",
    "names",
    "option",
    "read_pyproject",
    "requested_mode",
    "seconds",
]

# Option names are constants so tests and error messages use the same spelling.
OPT_SELFTEST = "--selftest-only"
OPT_MODELS = "--models"
OPT_ARMS = "--arms"
OPT_ARM = "--arm"
OPT_RUNS = "--runs"
OPT_TASKS = "--tasks"
OPT_CELL_TIMEOUT = "--cell-timeout"
OPT_MAX_TURNS = "--max-turns"
OPT_CLAUDE = "--claude"
OPT_OUT = "--ponybench-out"
OPT_TASKS_DIR = "--ponybench-tasks"
OPT_RESCORE = "--rescore"
OPT_RESUME = "--resume"
OPT_PREFLIGHT = "--preflight"
OPT_SKIP_PREFLIGHT = "--skip-preflight"
OPT_BUDGET = "--budget-usd"
OPT_CELL_BUDGET = "--max-budget-usd"
# Not --retries: pytest-retry owns that name. The pyproject key stays `retries`.
OPT_RETRIES = "--cell-retries"
OPT_WARMUP = "--warmup"
OPT_NO_REPORT = "--no-report"
# Command line only, never a pyproject key: running an unconfined agent is a choice per run.
OPT_ALLOW_UNCONFINED = "--allow-unconfined"
OPT_SHARD = SHARD_FLAG  # command line only: each machine of a sharded grid gets its own
OPT_OFFLINE_LATENCY = "--offline-latency"
OPT_STOP_AFTER = "--stop-after-invalid"
OPT_MAX_WS_MB = "--max-workspace-mb"
OPT_MAX_WS_FILES = "--max-workspace-files"
OPT_DRY_RUN = "--dry-run"
OPT_JUDGE_MODEL = "--judge-model"
OPT_JUDGE_RUNS = "--judge-runs"
# The judge model when none is given: a current Sonnet, or the offline judge in a run whose
# models are all offline (which must stay free).
DEFAULT_JUDGE = "sonnet"
OFFLINE_JUDGE = "offline-judge"
MAX_JUDGE_RUNS = 9
OPT_PRIMARY = "--primary"
OPT_FAMILY = "--family"
OPT_UNTIL_DECIDED = "--until-decided"
OPT_MAX_RUNS = "--max-runs"
OPT_MAX_TASKS = "--max-tasks"
FAMILIES = ("model", "run")

DEFAULTS: dict[str, Any] = {
    "tasks": "benchmarks/tasks",
    "fixtures": "fixtures",
    "out": "runs",
    "models": ["offline-reference"],
    "runs": 1,
    "cell_timeout": 300.0,
    "max_turns": 30,
    "claude": "claude",
    "retries": 1,
    "budget_usd": None,
    "max_budget_usd": None,
    "warmup": "auto",
    "offline_latency": 0.0,
    "stop_after_invalid": 5,
    "max_workspace_mb": 64,
    "max_workspace_files": 20_000,
    "judge_model": None,
    "judge_runs": 1,
    "primary": "pass",
    "family": "model",
    "max_runs": 10,
}

HELP = {
    OPT_SHARD: "run only shard I of N (I from 1): the (task, model, run) blocks whose stable hash "
    "falls in it, every arm of a block together; merge the shards' run dirs with ponybench merge",
    OPT_OFFLINE_LATENCY: "seconds every offline-* session is held (its last reply waits until then), "
    "as a live API would; a model suffix such as offline-reference@20s sets it per model",
    OPT_STOP_AFTER: "stop the run after this many consecutive invalid cells of one kind (an "
    "unreachable API, refused credentials, an overload that stays); 0 never stops",
    OPT_ALLOW_UNCONFINED: "run paid models even where the agent cannot be confined (no bubblewrap "
    "or no user namespaces): the agent can then read and change anything the harness's user can",
    OPT_MAX_WS_MB: "the most a cell's workspace may hold, in MiB (sparse files at their full size); "
    "a workspace over it is not copied or scored, and its cell fails with the reason",
    OPT_MAX_WS_FILES: "the most files and folders a cell's workspace may hold; over it, as for "
    + "--max-workspace-mb",
    OPT_DRY_RUN: "print the grid, the pre-flight a paid run would do and an estimate of its cost, "
    "then stop: nothing is run, spent or written, no credential is needed",
    OPT_SELFTEST: "run only the instrument selftest: every task's scorer against its good and bad "
    "references, no claude, no API",
    OPT_MODELS: "comma-separated models for the grid: aliases (haiku, sonnet, opus), full ids, or "
    "offline-* models served locally (default from [tool.ponybench] models)",
    OPT_ARMS: "comma-separated arm names to run (default: every configured arm, baseline first)",
    OPT_ARM: "add an arm: NAME=plugin:PATH | prompt:TEXT | prompt-file:PATH | settings:JSON_OR_PATH "
    "(repeatable)",
    OPT_RUNS: "runs per (task, arm, model) cell",
    OPT_TASKS: "comma-separated task ids or tags to run (default: all)",
    OPT_CELL_TIMEOUT: "seconds one claude session may take before its process group is killed",
    OPT_MAX_TURNS: "--max-turns passed to claude",
    OPT_CLAUDE: "the claude executable (name on PATH or path)",
    OPT_OUT: "folder that holds the run directories",
    OPT_TASKS_DIR: "folder of task folders (default from [tool.ponybench] tasks)",
    OPT_RESCORE: "recompute every cell's scores and metrics from the workspaces kept in RUN_DIR "
    "(no claude, no API); the new records go to RUN_DIR/rescore-<stamp>/",
    OPT_PREFLIGHT: "run the pre-flight (selftest of the selected tasks, arm activation check) "
    "even when every model is offline (it always runs before a paid run)",
    OPT_SKIP_PREFLIGHT: "skip the pre-flight before a paid run (not recommended)",
    OPT_BUDGET: "dollar budget for the whole run, shared by all xdist workers: no cell starts "
    "once spend plus the running cells' caps would pass it; the rest are skipped",
    OPT_CELL_BUDGET: "dollar cap per cell, passed to claude --max-budget-usd",
    OPT_RETRIES: "re-runs of a cell whose session was invalid (API error, no result), with "
    "backoff; a wrong or unsafe result is never retried",
    OPT_NO_REPORT: "do not write the HTML report (RUN_DIR/report.html) at the end of the session",
    OPT_WARMUP: "prompt-cache warm-up call per (model, arm) before the cells: auto (live models "
    "only), on, off",
    OPT_RESUME: "finish RUN_DIR: the same grid as that run, running only the cells without a "
    "valid record, appending to the same run dir",
    OPT_JUDGE_MODEL: f"the model llm and llm_reference graders ask (default {DEFAULT_JUDGE}; "
    f"{OFFLINE_JUDGE} when every model of the run is offline)",
    OPT_JUDGE_RUNS: f"ask the judge K times per grader and cell (1-{MAX_JUDGE_RUNS}); a grader passes "
    "when most answers pass, and its agreement with itself is recorded (3 recommended)",
    OPT_PRIMARY: "the pre-declared primary metric of the verdicts, tested first at most of the level "
    "(default pass; also score, cost, loc, tokens, time, correct, safe)",
    OPT_FAMILY: "whose familywise error is held at 5%: every arm of one model (model, the default) "
    "or every arm and model of the run (run)",
    OPT_UNTIL_DECIDED: "run blocks of runs and look after each: stop as soon as every arm's primary "
    "is decided or provably negligible (a group-sequential design that keeps the 5%)",
    OPT_MAX_RUNS: "with --until-decided: the most runs per task (default 10)",
    OPT_MAX_TASKS: "with --until-decided: run only the first N selected tasks",
}


# Every option is registered under a name no other plugin uses (`--ponybench-...`); the short
# name users type (`--models`) is its alias wherever no other plugin or conftest owns that name
# (alias_short_names). `--ponybench-out` and `--ponybench-tasks` have no short form.
_LONG_EXCEPTIONS = {OPT_TASKS: "--ponybench-select"}


def long_name(opt: str) -> str:
    """The name an option is registered under."""
    if opt.startswith("--ponybench-"):
        return opt
    return _LONG_EXCEPTIONS.get(opt, "--ponybench-" + opt[2:])


def dest(opt: str) -> str:
    return long_name(opt)[2:].replace("-", "_")


def given_by_user(config: pytest.Config, *flags: str) -> bool:
    """Whether the user chose one of these options of pytest's or a plugin's (on the command
    line, in PYTEST_ADDOPTS or in the ini file's addopts): their choice is kept."""
    args = [*config.invocation_params.args, *os.environ.get("PYTEST_ADDOPTS", "").split()]
    args += [str(a) for a in config.getini("addopts")]
    return any(a == f or a.startswith(f) for a in args for f in flags)


def option(config: pytest.Config, opt: str) -> Any:
    """The command line's value of an option, by the name users type."""
    return config.getoption(dest(opt))


# Sane upper bounds: past them a value is a typo, and a grid that never finishes collecting.
MAX_RUNS = 1000
MAX_CELLS = 100_000
MAX_SECONDS = 7 * 24 * 3600.0
MAX_TURNS = 10_000
MAX_RETRIES = 20
MAX_USD = 1_000_000.0


def read_pyproject(rootdir: Path) -> tuple[dict[str, Any], Path | None]:
    """The [tool.ponybench] table of rootdir's pyproject.toml (empty when there is none)."""
    path = rootdir / "pyproject.toml"
    if not path.is_file():
        return {}, None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PonybenchError(f"{path}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise PonybenchError(f"{path}: cannot be read: {exc}") from exc
    tool = data.get("tool", {})
    table = tool.get("ponybench", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise PonybenchError(f"{path}: [tool.ponybench] must be a table")
    return table, path


@dataclass(frozen=True)
class Settings:
    root: Path
    tasks_dir: Path
    fixtures_dir: Path
    out_dir: Path
    models: tuple[str, ...]
    runs: int
    cell_timeout: float
    max_turns: int
    claude: str
    task_filter: tuple[str, ...]
    arm_names: tuple[str, ...]
    arm_specs: tuple[str, ...]
    arms_table: dict[str, Any] = field(default_factory=dict)
    pyproject: Path | None = None
    tasks_dir_given: bool = False  # named by the user: a missing folder is then an error
    retries: int = 1
    budget_usd: float | None = None
    max_budget_usd: float | None = None
    warmup: str = "auto"
    shard: Shard | None = None
    offline_latency: float = 0.0
    stop_after_invalid: int = 5
    max_workspace_mb: int = 64
    max_workspace_files: int = 20_000
    # Command line only: choices per run, never settings of a project.
    no_report: bool = False
    allow_unconfined: bool = False
    preflight: bool = False
    skip_preflight: bool = False
    dry_run: bool = False
    resume: str | None = None
    rescore: str | None = None
    # The grid flags as given on the command line (a resume compares them with its run's).
    grid_given: dict[str, Any] = field(default_factory=dict)
    judge_model: str | None = None  # None: DEFAULT_JUDGE, or OFFLINE_JUDGE for offline runs
    judge_runs: int = 1
    primary: str = "pass"  # the verdicts' primary metric, as typed (checked by stats)
    family: str = "model"
    until_decided: bool = False  # the sequential mode: runs is then --max-runs
    max_tasks: int | None = None
    # pytest-xdist's own options, as this run was given them: its --dist ("no" without xdist)
    # and its -n (None without it), which the scheduler and the resume command follow.
    xdist_dist: str = "no"
    xdist_workers: str | None = None
    # The command line points at the built-in suite (`--pyargs pytest_ponybench.suite`): its
    # tasks and fixtures are the package's, whatever [tool.ponybench] says.
    builtin_suite: bool = False

    @property
    def bench_dir(self) -> Path:
        """The benchmark folder: the one that holds the tasks folder and the cell test module
        (for the built-in suite, the package that holds its cell module)."""
        return SUITE if self.builtin_suite else self.tasks_dir.parent

    def resolve_claude(self) -> str | None:
        """Absolute path of the claude binary, or None when it cannot be found."""
        candidate = Path(self.claude).expanduser()
        if candidate.parent != Path(".") and candidate.is_file():
            return str(candidate.resolve())
        return shutil.which(self.claude)


class _Source:
    """One setting's value and where it came from (flag, pyproject key or default)."""

    def __init__(self, config: pytest.Config, table: dict[str, Any], pyproject: Path | None) -> None:
        self.config, self.table, self.pyproject = config, table, pyproject

    def pick(self, opt: str | None, key: str) -> tuple[str, Any]:
        """(where, value): the flag if given, else the ini option (pytest.ini, tox.ini, setup.cfg,
        [tool.pytest.ini_options] or -o), else the pyproject key, else the default."""
        cli = option(self.config, opt) if opt else None
        if cli is not None:
            return opt or key, cli
        ini = INI_PREFIX + key
        value = self.config.getini(ini)
        if value is not None:
            where = f"ini option {ini}" + (f" in {self.config.inipath}" if self.config.inipath else "")
            return where, value
        if key in self.table:
            where = f"[tool.ponybench] {key}" + (f" in {self.pyproject}" if self.pyproject else "")
            return where, self.table[key]
        return f"the default {key}", DEFAULTS[key]


def _parse_number(where: str, value: Any) -> float:
    """A finite number from a flag's text or a TOML value; bools are not numbers."""
    if isinstance(value, bool):
        raise PonybenchError(f"{where} must be a number, not {value!r}")
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise PonybenchError(f"{where} must be a number, not {value!r}") from None
    else:
        raise PonybenchError(f"{where} must be a number, not {value!r}")
    if not math.isfinite(number):
        raise PonybenchError(f"{where} must be a finite number, not {value!r}")
    return number


def count(where: str, value: Any, minimum: int, maximum: int) -> int:
    """A whole number in [minimum, maximum]: 1.7 or true is refused, never rounded."""
    number = _parse_number(where, value)
    if number != int(number):
        raise PonybenchError(f"{where} must be a whole number, not {value!r}")
    if not minimum <= number <= maximum:
        raise PonybenchError(f"{where} must be from {minimum} to {maximum}, not {value!r}")
    return int(number)


def seconds(where: str, value: Any, minimum: float, maximum: float) -> float:
    number = _parse_number(where, value)
    if not minimum <= number <= maximum:
        raise PonybenchError(f"{where} must be from {minimum:g} to {maximum:g}, not {value!r}")
    return number


def dollars(where: str, value: Any) -> float | None:
    """An optional positive amount (None: no limit)."""
    if value is None:
        return None
    number = _parse_number(where, value)
    if not 0 < number <= MAX_USD:
        raise PonybenchError(f"{where} must be more than 0 and at most {MAX_USD:g}, not {value!r}")
    return number


def names(where: str, value: Any) -> tuple[str, ...]:
    """A comma-separated string or a list of strings; a name given twice is refused."""
    if value is None:
        return ()
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        items = value
    else:
        raise PonybenchError(f"{where} must be a comma-separated string or a list of strings, not {value!r}")
    out = [v.strip() for v in items if v.strip()]
    twice = sorted({v for v in out if out.count(v) > 1})
    if twice:
        raise PonybenchError(f"{where}: {', '.join(twice)} given more than once")
    return tuple(out)


def _text(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise PonybenchError(f"{where} must be a non-empty string, not {value!r}")
    return value


def _primary(where: str, value: Any) -> str:
    from pytest_ponybench.analysis.stats import canonical_metric

    try:
        return canonical_metric(_text(where, value))
    except ValueError as exc:
        raise PonybenchError(f"{where}: {exc}") from None


def _optional_text(where: str, value: Any) -> str | None:
    return None if value is None else _text(where, value)


def _choice(where: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise PonybenchError(f"{where} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


def load_settings(config: pytest.Config) -> Settings:
    """Every setting resolved once (CLI > pyproject > default) and checked, with its source named."""
    root = Path(config.rootpath)
    table, pyproject = read_pyproject(root)
    where = f"{pyproject} [tool.ponybench]" if pyproject else "[tool.ponybench]"
    unknown = sorted(set(table) - set(DEFAULTS) - {"arms"})
    if unknown:
        raise PonybenchError(
            f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted([*DEFAULTS, 'arms']))})"
        )
    src = _Source(config, table, pyproject)
    suite = builtin_suite(config)
    if suite and option(config, OPT_TASKS_DIR) is not None:
        raise PonybenchError(
            f"{OPT_TASKS_DIR} names a tasks folder, but the command line points at the built-in suite, "
            "which brings its own: give one or the other"
        )
    arms_table = table.get("arms", {})
    if not isinstance(arms_table, dict):
        raise PonybenchError(f"{where}: key 'arms' must be a table of arm name -> arm")
    models = names(*src.pick(OPT_MODELS, "models"))
    if not models:
        raise PonybenchError(f"{src.pick(OPT_MODELS, 'models')[0]}: give at least one model")
    for model in models:  # each is part of a cell id, and so of a folder's name
        if (problem := model_problem(model)) is not None:
            raise PonybenchError(f"{src.pick(OPT_MODELS, 'models')[0]}: the model {problem}")
    tasks_where, tasks_value = src.pick(OPT_TASKS_DIR, "tasks")
    tasks_dir = SUITE_TASKS if suite else root / _text(tasks_where, tasks_value)
    settings = Settings(
        root=root,
        tasks_dir=tasks_dir,
        fixtures_dir=SUITE_FIXTURES if suite else root / _text(*src.pick(None, "fixtures")),
        out_dir=root / _text(*src.pick(OPT_OUT, "out")),
        models=models,
        runs=count(*src.pick(OPT_RUNS, "runs"), 1, MAX_RUNS),
        cell_timeout=seconds(*src.pick(OPT_CELL_TIMEOUT, "cell_timeout"), 1, MAX_SECONDS),
        max_turns=count(*src.pick(OPT_MAX_TURNS, "max_turns"), 1, MAX_TURNS),
        claude=_text(*src.pick(OPT_CLAUDE, "claude")),
        task_filter=names(OPT_TASKS, option(config, OPT_TASKS)),
        arm_names=names(OPT_ARMS, option(config, OPT_ARMS)),
        arm_specs=tuple(option(config, OPT_ARM) or ()),
        arms_table=arms_table,
        pyproject=pyproject,
        tasks_dir_given=suite or not tasks_where.startswith("the default"),
        retries=count(*src.pick(OPT_RETRIES, "retries"), 0, MAX_RETRIES),
        budget_usd=dollars(*src.pick(OPT_BUDGET, "budget_usd")),
        max_budget_usd=dollars(*src.pick(OPT_CELL_BUDGET, "max_budget_usd")),
        warmup=_choice(*src.pick(OPT_WARMUP, "warmup"), ("auto", "on", "off")),
        shard=_shard(option(config, OPT_SHARD)),
        offline_latency=seconds(*src.pick(OPT_OFFLINE_LATENCY, "offline_latency"), 0, 3600),
        stop_after_invalid=count(*src.pick(OPT_STOP_AFTER, "stop_after_invalid"), 0, MAX_CELLS),
        max_workspace_mb=count(*src.pick(OPT_MAX_WS_MB, "max_workspace_mb"), 1, 1 << 20),
        max_workspace_files=count(*src.pick(OPT_MAX_WS_FILES, "max_workspace_files"), 10, 10_000_000),
        primary=_primary(*src.pick(OPT_PRIMARY, "primary")),
        family=_choice(*src.pick(OPT_FAMILY, "family"), FAMILIES),
        judge_model=_optional_text(*src.pick(OPT_JUDGE_MODEL, "judge_model")),
        judge_runs=count(*src.pick(OPT_JUDGE_RUNS, "judge_runs"), 1, MAX_JUDGE_RUNS),
        no_report=bool(option(config, OPT_NO_REPORT)),
        allow_unconfined=bool(option(config, OPT_ALLOW_UNCONFINED)),
        preflight=bool(option(config, OPT_PREFLIGHT)),
        skip_preflight=bool(option(config, OPT_SKIP_PREFLIGHT)),
        dry_run=bool(option(config, OPT_DRY_RUN)),
        resume=option(config, OPT_RESUME),
        rescore=option(config, OPT_RESCORE),
        grid_given={
            o: v
            for o in (OPT_MODELS, OPT_TASKS, OPT_ARMS, OPT_RUNS, OPT_ARM)
            if (v := option(config, o)) is not None
        },
        xdist_dist=str(config.getoption("dist", "no")),
        xdist_workers=None if (n := config.getoption("numprocesses", None)) is None else str(n),
        builtin_suite=suite,
    )
    return _sequential(config, src, settings)


def _sequential(config: pytest.Config, src: _Source, settings: Settings) -> Settings:
    """--until-decided runs up to --max-runs runs per task (the grid's runs); its stops are
    its own, so --runs and a stray --max-tasks are refused by name."""
    until = bool(option(config, OPT_UNTIL_DECIDED))
    max_tasks = option(config, OPT_MAX_TASKS)
    if not until:
        if max_tasks is not None or option(config, OPT_MAX_RUNS) is not None:
            raise PonybenchError(f"{OPT_MAX_RUNS} and {OPT_MAX_TASKS} are the stops of {OPT_UNTIL_DECIDED}")
        return settings
    if option(config, OPT_RUNS) is not None:
        raise PonybenchError(f"{OPT_UNTIL_DECIDED} runs until decided, up to {OPT_MAX_RUNS}; drop {OPT_RUNS}")
    return replace(
        settings,
        until_decided=True,
        runs=count(*src.pick(OPT_MAX_RUNS, "max_runs"), 2, MAX_RUNS),
        max_tasks=None if max_tasks is None else count(OPT_MAX_TASKS, max_tasks, 2, MAX_CELLS),
    )


def _shard(value: str | None) -> Shard | None:
    if value is None:
        return None
    try:
        return parse_shard(value)
    except ValueError as exc:
        raise PonybenchError(str(exc)) from None


class Mode(enum.Enum):
    """What a pytest run asks of ponybench; resolved once, in pytest_configure."""

    SELFTEST = "selftest"  # every task's scorer against its references, no claude
    RUN = "run"  # a new run dir, the grid of cells
    RESUME = "resume"  # an earlier run dir, only its cells without a valid record
    RESCORE = "rescore"  # an earlier run's kept workspaces scored again, nothing run


# Options that only mean something to ponybench: given any of them, a missing tasks folder is an
# error rather than a sign that this pytest run is not about the benchmark.
_OWN_OPTIONS = (
    OPT_MODELS,
    OPT_ARMS,
    OPT_ARM,
    OPT_RUNS,
    OPT_TASKS,
    OPT_TASKS_DIR,
    OPT_RESCORE,
    OPT_RESUME,
    OPT_BUDGET,
    OPT_SHARD,
)


def _module_path(name: str) -> Path | None:
    """The file or package folder of a dotted module name, as `--pyargs` finds it (None when it
    names none)."""
    if not all(part.isidentifier() for part in name.split(".")):
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, AttributeError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    origin = Path(spec.origin)
    return origin.parent if spec.submodule_search_locations else origin


def arg_paths(config: pytest.Config) -> list[Path]:
    """The command line's paths, resolved; with `--pyargs`, a module name stands for its file."""
    base = Path(config.invocation_params.dir)
    pyargs = bool(config.getoption("pyargs", False))
    out = []
    for arg in config.args:
        text = arg.split("::")[0]
        found = _module_path(text) if pyargs else None
        out.append(found.resolve() if found is not None else (base / text).resolve())
    return out


def builtin_suite(config: pytest.Config) -> bool:
    """Whether the command line points at the built-in suite (`pytest --pyargs
    pytest_ponybench.suite`, or that package's folder); it runs alone."""
    suite = SUITE.resolve()
    inside = [p == suite or suite in p.parents for p in arg_paths(config)]
    if any(inside) and not all(inside):
        raise PonybenchError(
            "the command line points at the built-in suite (pytest_ponybench.suite) and at other "
            "paths: the built-in suite runs alone (pytest --pyargs pytest_ponybench.suite ...)"
        )
    return any(inside)


def _points_at(config: pytest.Config, folder: Path) -> bool:
    """Whether the command line's paths lie in, on, or above the benchmark folder."""
    folder = folder.resolve()
    return any(
        path == folder or folder in path.parents or path in folder.parents for path in arg_paths(config)
    )


def requested_mode(config: pytest.Config) -> tuple[Mode, Settings] | None:
    """The mode this run asks for, or None when it is not about the benchmark at all.

    Cheap on purpose: it reads pyproject.toml and looks at the paths, nothing else, so a project
    that merely has the package installed pays nothing and sees nothing.
    """
    selftest = bool(option(config, OPT_SELFTEST))
    resume, rescore = option(config, OPT_RESUME), option(config, OPT_RESCORE)
    if resume and rescore:
        raise PonybenchError(f"{OPT_RESUME} and {OPT_RESCORE} exclude each other")
    if selftest and (resume or rescore):
        raise PonybenchError(f"{OPT_SELFTEST} runs no cell: it takes neither {OPT_RESUME} nor {OPT_RESCORE}")
    own = any(option(config, o) for o in _OWN_OPTIONS)
    if builtin_suite(config):
        settings = load_settings(config)
        if selftest:
            return Mode.SELFTEST, settings
        return (Mode.RESCORE if rescore else Mode.RESUME if resume else Mode.RUN), settings
    if not (selftest or own) and not (Path(config.rootpath) / "pyproject.toml").is_file():
        return None
    if not (selftest or own) and not read_pyproject(Path(config.rootpath))[0]:
        if not (Path(config.rootpath) / str(DEFAULTS["tasks"])).is_dir():
            return None  # no [tool.ponybench], no benchmarks/tasks: not a benchmark project
    settings = load_settings(config)
    if selftest:
        return Mode.SELFTEST, settings
    if not _points_at(config, settings.bench_dir):
        if own and settings.tasks_dir.is_dir():
            raise PonybenchError(
                f"ponybench options were given, but no path on the command line is in the benchmark "
                f"folder {settings.bench_dir}: run `pytest {settings.bench_dir.name} ...`"
            )
        if not own:
            return None  # the plan then names the missing tasks folder
    elif not settings.tasks_dir.is_dir() and not (own or settings.tasks_dir_given):
        return None
    if rescore:
        return Mode.RESCORE, settings
    return (Mode.RESUME if resume else Mode.RUN), settings


INI_PREFIX = "ponybench_"
_STORE_TRUE = (
    OPT_SELFTEST,
    OPT_PREFLIGHT,
    OPT_SKIP_PREFLIGHT,
    OPT_NO_REPORT,
    OPT_ALLOW_UNCONFINED,
    OPT_DRY_RUN,
    OPT_UNTIL_DECIDED,
)
_METAVAR = {
    OPT_ARM: "NAME=KIND:VALUE",
    OPT_RESCORE: "RUN_DIR",
    OPT_RESUME: "RUN_DIR",
    OPT_BUDGET: "USD",
    OPT_CELL_BUDGET: "USD",
    OPT_RETRIES: "N",
    OPT_SHARD: "I/N",
    OPT_OFFLINE_LATENCY: "SECONDS",
    OPT_STOP_AFTER: "N",
    OPT_MAX_WS_MB: "MIB",
    OPT_MAX_WS_FILES: "N",
    OPT_JUDGE_MODEL: "MODEL",
    OPT_JUDGE_RUNS: "K",
    OPT_PRIMARY: "METRIC",
    OPT_FAMILY: "model|run",
    OPT_MAX_RUNS: "N",
    OPT_MAX_TASKS: "N",
}
_INI_HELP = {
    "tasks": HELP[OPT_TASKS_DIR],
    "fixtures": "folder of fixture repositories that fixture tasks copy",
    "out": HELP[OPT_OUT],
    "models": HELP[OPT_MODELS],
    "runs": HELP[OPT_RUNS],
    "cell_timeout": HELP[OPT_CELL_TIMEOUT],
    "max_turns": HELP[OPT_MAX_TURNS],
    "claude": HELP[OPT_CLAUDE],
    "retries": HELP[OPT_RETRIES],
    "budget_usd": HELP[OPT_BUDGET],
    "max_budget_usd": HELP[OPT_CELL_BUDGET],
    "warmup": HELP[OPT_WARMUP],
    "offline_latency": HELP[OPT_OFFLINE_LATENCY],
    "stop_after_invalid": HELP[OPT_STOP_AFTER],
    "max_workspace_mb": HELP[OPT_MAX_WS_MB],
    "max_workspace_files": HELP[OPT_MAX_WS_FILES],
    "judge_model": HELP[OPT_JUDGE_MODEL],
    "judge_runs": HELP[OPT_JUDGE_RUNS],
    "primary": HELP[OPT_PRIMARY],
    "family": HELP[OPT_FAMILY],
    "max_runs": HELP[OPT_MAX_RUNS],
}


def add_options(parser: pytest.Parser) -> None:
    """Every option under its own prefix (no clash with another plugin's `--models`), with the
    short form named in its help; every setting also as an ini option `ponybench_<key>`."""
    group = parser.getgroup("ponybench", "benchmark Claude Code arms (pytest-ponybench)")
    for opt in HELP:
        short = f" [also {opt} where no other plugin uses it]" if long_name(opt) != opt else ""
        # argparse %-formats help text: a literal % must reach it doubled.
        help_text = (HELP[opt] + short).replace("%", "%%")
        kwargs: dict[str, Any] = {"dest": dest(opt), "help": help_text}
        if opt in _STORE_TRUE:
            kwargs.update(action="store_true", default=False)
        elif opt == OPT_ARM:
            kwargs.update(action="append", default=None)
        elif opt == OPT_WARMUP:
            kwargs.update(default=None, choices=("auto", "on", "off"))
        else:
            kwargs.update(default=None)
        if opt in _METAVAR:
            kwargs["metavar"] = _METAVAR[opt]
        group.addoption(long_name(opt), **kwargs)
    for key in DEFAULTS:
        parser.addini(INI_PREFIX + key, _INI_HELP[key] + " (the command line wins)", default=None)


def _owned_elsewhere(parser: pytest.Parser) -> set[str]:
    """Option names registered by anything else: pytest, plugins, conftest.py files."""
    groups = [getattr(parser, "_anonymous", None), *getattr(parser, "_groups", [])]
    return {name for g in groups if g is not None for o in g.options for name in o.names()}


def alias_short_names(parser: pytest.Parser, args: list[str]) -> None:
    """Rewrite `--models X` into `--ponybench-models X` in place, for every short name nobody
    else registered, once the initial conftests have added their options. A project whose
    conftest defines `--models` keeps it; ponybench's is then `--ponybench-models`."""
    taken = _owned_elsewhere(parser)
    free = {opt: long_name(opt) for opt in HELP if long_name(opt) != opt and opt not in taken}
    for i, arg in enumerate(args):
        if arg == "--":
            break
        name, eq, value = arg.partition("=")
        if name in free:
            args[i] = free[name] + eq + value
