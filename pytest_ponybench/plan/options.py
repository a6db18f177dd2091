"""The option table: `[tool.ponybench]` in pyproject.toml, overridden by command-line options.

Every option is one row of OPTIONS (flag, parser, default, keys, help, whether run.json records
it, what a resume does with it); pytest_addoption, the settings, the recorded options and the
resume check are all made from that table, and `Settings` holds its values. No pytest here:
roles/settings.py registers the rows with pytest and resolves them once per session (CLI >
environment > ini > pyproject > default) so every module reads one object.
"""

from __future__ import annotations

import enum
import math
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_ponybench._util.paths import SUITE
from pytest_ponybench.core.armparts import SPEC_KINDS
from pytest_ponybench.core.bounds import MAX_JUDGE_RUNS
from pytest_ponybench.core.bounds import OPT_SHARD as SHARD_FLAG
from pytest_ponybench.errors import PonybenchError

if TYPE_CHECKING:
    from pytest_ponybench.core.shards import Shard

__all__ = [
    "DEFAULTS",
    "HELP",
    "INI_PREFIX",
    "KEYED",
    "MAX_CELLS",
    "MAX_RETRIES",
    "MAX_RUNS",
    "MAX_SECONDS",
    "MAX_TURNS",
    "MAX_USD",
    "OPTIONS",
    "Mode",
    "OPT_AGENTS",
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
    "RECORDED",
    "ROWS",
    "SECTIONS",
    "Option",
    "Resume",
    "Settings",
    "count",
    "dest",
    "dollars",
    "long_name",
    "names",
    "read_pyproject",
    "seconds",
]

# Option names are constants so tests and error messages use the same spelling.
OPT_SELFTEST = "--selftest-only"
OPT_MODELS = "--models"
OPT_AGENTS = "--agents"
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
OPT_PRIMARY = "--primary"
OPT_FAMILY = "--family"
OPT_DIRECTION = "--direction"
OPT_UNTIL_DECIDED = "--until-decided"
OPT_MAX_RUNS = "--max-runs"
OPT_MAX_TASKS = "--max-tasks"
FAMILIES = ("model", "run")
DIRECTIONS = ("two-sided", "better")

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
    agents: tuple[str, ...] = ("claude",)  # the agent CLIs of the grid, as --agents names them
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
    direction: str = "two-sided"  # the primary's test: both ways, or a pre-declared "better"
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


def _agents(where: str, value: Any) -> tuple[str, ...]:
    """Agent names (`agents.registry`), at least one; an unknown one is refused naming those known."""
    from pytest_ponybench.agents import registry

    given = names(where, value)
    if not given:
        raise PonybenchError(f"{where}: give at least one agent ({', '.join(registry.names())})")
    unknown = [a for a in given if a not in registry.names()]
    if unknown:
        raise PonybenchError(f"{where}: unknown agent {unknown[0]!r} (known: {', '.join(registry.names())})")
    return given


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


class Resume(enum.Enum):
    """What `--resume` does with an option: the run's grid is what a resume finishes."""

    FIXED = "fixed"  # given on the command line, it must equal the run's, or the resume is refused
    RUN = "run"  # the run's recorded value replaces the command line's
    FREE = "free"  # this session's value (a choice per session: budget, retries, output)


Parse = Callable[[str, Any], Any]


def _counts(minimum: int, maximum: int) -> Parse:
    return lambda where, value: count(where, value, minimum, maximum)


def _seconds(minimum: float, maximum: float) -> Parse:
    return lambda where, value: seconds(where, value, minimum, maximum)


def _choices(choices: tuple[str, ...]) -> Parse:
    return lambda where, value: _choice(where, value, choices)


def _switch(where: str, value: Any) -> bool:
    return value is True  # a store_true flag, or a recorded true (anything else is off)


def _as_given(where: str, value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Option:
    """One option, declared once: pytest_addoption, load_settings, run.json's options and the
    resume check are all read from its row in OPTIONS."""

    flag: str | None  # the name users type (None: a [tool.ponybench] / ini key only)
    help: str  # shared by the flag and its ini option, as pytest-timeout shares its text
    parse: Parse  # (where, value) -> the setting; `where` names the flag, key or file
    setting: str | None = None  # its Settings field (None: read where it is used)
    key: str | None = None  # [tool.ponybench] key and ini option ponybench_<key> (None: CLI only)
    default: Any = None
    env: str | None = None  # an environment variable, between the flag and the ini option
    action: str = "store"  # store, store_true or append
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    record: str | None = None  # its key in run.json's options (every option that shapes figures)
    resume: Resume = Resume.FREE
    listed: bool = False  # a list of names: a resume compares them as a set
    own: bool = False  # given, the run is about the benchmark (a missing tasks folder is an error)
    by_hand: bool = False  # load_settings resolves it itself: it depends on other options


OPTIONS: tuple[Option, ...] = (
    # The grid: what is run.
    Option(
        OPT_MODELS,
        "comma-separated models for the grid: aliases (haiku, sonnet, opus), full ids, or "
        "offline-* models served locally (default from [tool.ponybench] models)",
        names,
        "models",
        key="models",
        default=["offline-reference"],
        metavar="MODELS",
        record="models",
        resume=Resume.FIXED,
        listed=True,
        own=True,
    ),
    Option(
        OPT_AGENTS,
        "comma-separated agent CLIs for the grid: claude, opencode, copilot, codex; each "
        "agent's arms are compared with that agent's baseline (default claude)",
        _agents,
        "agents",
        key="agents",
        default=["claude"],
        metavar="AGENTS",
        record="agents",
        resume=Resume.FIXED,
        listed=True,
        own=True,
    ),
    Option(
        OPT_RUNS,
        "runs per (task, arm, model) cell",
        _counts(1, MAX_RUNS),
        "runs",
        key="runs",
        default=1,
        metavar="N",
        record="runs",
        resume=Resume.FIXED,
        own=True,
    ),
    Option(
        OPT_TASKS,
        "comma-separated task ids or tags to run (default: all)",
        names,
        "task_filter",
        metavar="IDS",
        record="tasks",
        resume=Resume.FIXED,
        listed=True,
        own=True,
    ),
    Option(
        OPT_ARMS,
        "comma-separated arm names to run (default: every configured arm, baseline first)",
        names,
        "arm_names",
        metavar="NAMES",
        record="arms",  # the arms that ran, by name (provenance writes them from the plan)
        resume=Resume.FIXED,
        listed=True,
        own=True,
    ),
    Option(
        OPT_ARM,
        f"add an arm: NAME=KIND:VALUE, KIND one of {', '.join(SPEC_KINDS)}; parts joined with + "
        "(NAME=plugin:PATH+settings:FILE); repeatable",
        lambda where, value: tuple(value or ()),
        "arm_specs",
        action="append",
        metavar="NAME=KIND:VALUE",
        resume=Resume.FIXED,  # a resume refuses an arm its run did not have (previous.py)
        own=True,
    ),
    Option(
        OPT_TASKS_DIR,
        "folder of task folders (default from [tool.ponybench] tasks)",
        _text,
        "tasks_dir",
        key="tasks",
        default="benchmarks/tasks",
        metavar="DIR",
        own=True,
        by_hand=True,  # a path under the root, or the built-in suite's
    ),
    Option(
        None,
        "folder of fixture repositories that fixture tasks copy",
        _text,
        "fixtures_dir",
        key="fixtures",
        default="fixtures",
        by_hand=True,
    ),
    Option(
        OPT_UNTIL_DECIDED,
        "run blocks of runs and look after each: stop as soon as every arm's primary "
        "is decided or provably negligible (a group-sequential design that keeps the 5%)",
        _switch,
        "until_decided",
        action="store_true",
        record="until_decided",
        resume=Resume.RUN,
        by_hand=True,  # with its stops, in _sequential
    ),
    Option(
        OPT_MAX_RUNS,
        "with --until-decided: the most runs per task (default 10)",
        _counts(2, MAX_RUNS),
        key="max_runs",
        default=10,
        metavar="N",
        by_hand=True,  # the grid's runs under --until-decided (recorded as runs)
    ),
    Option(
        OPT_MAX_TASKS,
        "with --until-decided: run only the first N selected tasks",
        lambda where, value: None if value is None else count(where, value, 2, MAX_CELLS),
        "max_tasks",
        metavar="N",
        record="max_tasks",
        resume=Resume.RUN,
        by_hand=True,
    ),
    Option(
        OPT_SHARD,
        "run only shard I of N (I from 1): the (task, model, run) blocks whose stable hash "
        "falls in it, every arm of a block together; merge the shards' run dirs with ponybench merge",
        lambda where, value: _shard(value),
        "shard",
        metavar="I/N",
        own=True,  # command line only: each machine of a sharded grid gets its own
    ),
    # The spend: what each cell may take, and the judge that is paid too.
    Option(
        OPT_BUDGET,
        "dollar budget for the whole run, shared by all xdist workers: no cell starts "
        "once spend plus the running cells' caps would pass it; the rest are skipped",
        dollars,
        "budget_usd",
        key="budget_usd",
        metavar="USD",
        record="budget_usd",
        own=True,
    ),
    Option(
        OPT_CELL_BUDGET,
        "dollar cap per cell, passed to claude --max-budget-usd",
        dollars,
        "max_budget_usd",
        key="max_budget_usd",
        metavar="USD",
        record="max_budget_usd",
    ),
    Option(
        OPT_CELL_TIMEOUT,
        "seconds one claude session may take before its process group is killed",
        _seconds(1, MAX_SECONDS),
        "cell_timeout",
        key="cell_timeout",
        default=300.0,
        metavar="SECONDS",
        record="cell_timeout",
        resume=Resume.RUN,
    ),
    Option(
        OPT_MAX_TURNS,
        "--max-turns passed to claude",
        _counts(1, MAX_TURNS),
        "max_turns",
        key="max_turns",
        default=30,
        metavar="N",
        record="max_turns",
        resume=Resume.RUN,
    ),
    Option(
        OPT_RETRIES,
        "re-runs of a cell whose session was invalid (API error, no result), with "
        "backoff; a wrong or unsafe result is never retried",
        _counts(0, MAX_RETRIES),
        "retries",
        key="retries",  # not --retries: pytest-retry owns that name
        default=1,
        metavar="N",
        record="retries",
    ),
    Option(
        OPT_STOP_AFTER,
        "stop the run after this many consecutive invalid cells of one kind (an "
        "unreachable API, refused credentials, an overload that stays); 0 never stops",
        _counts(0, MAX_CELLS),
        "stop_after_invalid",
        key="stop_after_invalid",
        default=5,
        metavar="N",
    ),
    Option(
        OPT_WARMUP,
        "prompt-cache warm-up call per (model, arm) before the cells: auto (live models only), on, off",
        _choices(("auto", "on", "off")),
        "warmup",
        key="warmup",
        default="auto",
        choices=("auto", "on", "off"),
    ),
    Option(
        OPT_JUDGE_MODEL,
        f"the model llm and llm_reference graders ask (default {DEFAULT_JUDGE}; "
        f"{OFFLINE_JUDGE} when every model of the run is offline)",
        _optional_text,
        "judge_model",
        key="judge_model",
        metavar="MODEL",
        record="judge_model",  # the judge that answered (plan.judge_model), not only the flag
    ),
    Option(
        OPT_JUDGE_RUNS,
        f"ask the judge K times per grader and cell (1-{MAX_JUDGE_RUNS}); a grader passes "
        "when most answers pass, and its agreement with itself is recorded (3 recommended); "
        "a task's own judge_runs wins",
        _counts(1, MAX_JUDGE_RUNS),
        "judge_runs",
        key="judge_runs",
        default=1,
        metavar="K",
        record="judge_runs",
    ),
    Option(
        OPT_CLAUDE,
        "the claude executable (name on PATH or path)",
        _text,
        "claude",
        key="claude",
        default="claude",
        metavar="PATH",
    ),
    Option(
        OPT_ALLOW_UNCONFINED,
        "run paid models even where the agent cannot be confined (no bubblewrap "
        "or no user namespaces): the agent can then read and change anything the harness's user can",
        _switch,
        "allow_unconfined",
        action="store_true",  # command line only: running an unconfined agent is a choice per run
    ),
    Option(
        OPT_OFFLINE_LATENCY,
        "seconds every offline-* session is held (its last reply waits until then), "
        "as a live API would; a model suffix such as offline-reference@20s sets it per model",
        _seconds(0, 3600),
        "offline_latency",
        key="offline_latency",
        default=0.0,
        metavar="SECONDS",
    ),
    Option(
        OPT_MAX_WS_MB,
        "the most a cell's workspace may hold, in MiB (sparse files at their full size); "
        "a workspace over it is not copied or scored, and its cell fails with the reason",
        _counts(1, 1 << 20),
        "max_workspace_mb",
        key="max_workspace_mb",
        default=64,
        metavar="MIB",
    ),
    Option(
        OPT_MAX_WS_FILES,
        "the most files and folders a cell's workspace may hold; over it, as for --max-workspace-mb",
        _counts(10, 10_000_000),
        "max_workspace_files",
        key="max_workspace_files",
        default=20_000,
        metavar="N",
    ),
    # The output: where it goes and what the verdicts test.
    Option(
        OPT_OUT,
        "folder that holds the run directories",
        _text,
        "out_dir",
        key="out",
        default="runs",
        metavar="DIR",
        by_hand=True,  # a path under the root
    ),
    Option(
        OPT_NO_REPORT,
        "do not write the HTML report (RUN_DIR/report.html) at the end of the session",
        _switch,
        "no_report",
        action="store_true",
    ),
    Option(
        OPT_PRIMARY,
        "the pre-declared primary metric of the verdicts, tested first at most of the level "
        "(default pass; also score, cost, loc, tokens, time, correct, safe)",
        _primary,
        "primary",
        key="primary",
        default="pass",
        metavar="METRIC",
        record="primary",
        resume=Resume.RUN,  # the verdict's design is the run's
    ),
    Option(
        OPT_FAMILY,
        "whose familywise error is held at 5%: every arm of one model (model, the default) "
        "or every arm and model of the run (run)",
        _choices(FAMILIES),
        "family",
        key="family",
        default="model",
        metavar="model|run",
        record="family",
        resume=Resume.RUN,
    ),
    Option(
        OPT_DIRECTION,
        "how the primary is tested: two-sided (the default), or better: the pre-declared one-sided "
        "test for better at p < 0.04, worse still called at p < 0.005 (one arm; more power for a "
        "gain, declared before the run)",
        _choices(DIRECTIONS),
        "direction",
        key="direction",
        default="two-sided",
        metavar="two-sided|better",
        record="direction",
        resume=Resume.RUN,
    ),
    # What the session does instead of a new run.
    Option(
        OPT_DRY_RUN,
        "print the grid, the pre-flight a paid run would do and an estimate of its cost, "
        "then stop: nothing is run, spent or written, no credential is needed",
        _switch,
        "dry_run",
        action="store_true",
    ),
    Option(
        OPT_SELFTEST,
        "run only the instrument selftest: every task's scorer against its good and bad "
        "references, no claude, no API",
        _switch,
        action="store_true",  # read by requested_mode, never a setting
    ),
    Option(
        OPT_PREFLIGHT,
        "run the whole pre-flight (selftest of the selected tasks, arm activation check) and "
        "refuse on a problem even when every model is offline (it always runs before a paid run; "
        "an offline run and a dry run check the arms' activation alone, and go on)",
        _switch,
        "preflight",
        action="store_true",
    ),
    Option(
        OPT_SKIP_PREFLIGHT,
        "skip the pre-flight before a paid run, and the arms' activation check of an offline "
        "run or a dry run (not recommended)",
        _switch,
        "skip_preflight",
        action="store_true",
    ),
    Option(
        OPT_RESUME,
        "finish RUN_DIR: the same grid as that run, running only the cells without a "
        "valid record, appending to the same run dir",
        _as_given,
        "resume",
        metavar="RUN_DIR",
        own=True,
    ),
    Option(
        OPT_RESCORE,
        "recompute every cell's scores and metrics from the workspaces kept in RUN_DIR "
        "(no claude, no API); the new records go to RUN_DIR/rescore-<stamp>/",
        _as_given,
        "rescore",
        metavar="RUN_DIR",
        own=True,
    ),
)

# pytest --help lists the options in the table's order, in one group per stretch of it, each
# named by the first flag of its stretch: the grid first, then the spend, the output, the modes.
SECTIONS: dict[str, tuple[str, str]] = {
    OPT_MODELS: ("ponybench", "pytest-ponybench, the grid: which cells run (task x arm x model x run)"),
    OPT_BUDGET: ("ponybench-spend", "pytest-ponybench, the spend: what the run and each cell may take"),
    OPT_OUT: ("ponybench-output", "pytest-ponybench, the output: where it goes, what the verdicts test"),
    OPT_DRY_RUN: ("ponybench-modes", "pytest-ponybench, instead of a new run: look, check, resume, rescore"),
}

# Views of the table, for the modules that read one column.
ROWS: dict[str, Option] = {o.flag: o for o in OPTIONS if o.flag is not None}
KEYED: dict[str, Option] = {o.key: o for o in OPTIONS if o.key is not None}
DEFAULTS: dict[str, Any] = {o.key: o.default for o in OPTIONS if o.key is not None}
HELP: dict[str, str] = {o.flag: o.help for o in OPTIONS if o.flag is not None}
RECORDED: tuple[Option, ...] = tuple(o for o in OPTIONS if o.record is not None)


def _shard(value: str | None) -> Shard | None:
    if value is None:
        return None
    from pytest_ponybench.core.shards import parse_shard  # the grid's modules: only when sharded

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


INI_PREFIX = "ponybench_"
