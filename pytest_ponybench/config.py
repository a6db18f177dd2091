"""Settings: `[tool.ponybench]` in pyproject.toml, overridden by command-line options.

Resolved once per session (CLI > pyproject > default) so every module reads one object.
"""

from __future__ import annotations

import enum
import math
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .shards import OPT_SHARD as SHARD_FLAG
from .shards import Shard, parse_shard

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
}


# A bad option or [tool.ponybench] value, with the key or flag named: a usage error for pytest.
ConfigError = pytest.UsageError

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
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from exc
    tool = data.get("tool", {})
    table = tool.get("ponybench", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.ponybench] must be a table")
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

    @property
    def bench_dir(self) -> Path:
        """The benchmark folder: the one that holds the tasks folder and the cell test module."""
        return self.tasks_dir.parent

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
        """(where, value): the flag if given, else the pyproject key, else the default."""
        cli = self.config.getoption(opt) if opt else None
        if cli is not None:
            return opt or key, cli
        if key in self.table:
            where = f"[tool.ponybench] {key}" + (f" in {self.pyproject}" if self.pyproject else "")
            return where, self.table[key]
        return f"the default {key}", DEFAULTS[key]


def _parse_number(where: str, value: Any) -> float:
    """A finite number from a flag's text or a TOML value; bools are not numbers."""
    if isinstance(value, bool):
        raise ConfigError(f"{where} must be a number, not {value!r}")
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise ConfigError(f"{where} must be a number, not {value!r}") from None
    else:
        raise ConfigError(f"{where} must be a number, not {value!r}")
    if not math.isfinite(number):
        raise ConfigError(f"{where} must be a finite number, not {value!r}")
    return number


def count(where: str, value: Any, minimum: int, maximum: int) -> int:
    """A whole number in [minimum, maximum]: 1.7 or true is refused, never rounded."""
    number = _parse_number(where, value)
    if number != int(number):
        raise ConfigError(f"{where} must be a whole number, not {value!r}")
    if not minimum <= number <= maximum:
        raise ConfigError(f"{where} must be from {minimum} to {maximum}, not {value!r}")
    return int(number)


def seconds(where: str, value: Any, minimum: float, maximum: float) -> float:
    number = _parse_number(where, value)
    if not minimum <= number <= maximum:
        raise ConfigError(f"{where} must be from {minimum:g} to {maximum:g}, not {value!r}")
    return number


def dollars(where: str, value: Any) -> float | None:
    """An optional positive amount (None: no limit)."""
    if value is None:
        return None
    number = _parse_number(where, value)
    if not 0 < number <= MAX_USD:
        raise ConfigError(f"{where} must be more than 0 and at most {MAX_USD:g}, not {value!r}")
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
        raise ConfigError(f"{where} must be a comma-separated string or a list of strings, not {value!r}")
    out = [v.strip() for v in items if v.strip()]
    twice = sorted({v for v in out if out.count(v) > 1})
    if twice:
        raise ConfigError(f"{where}: {', '.join(twice)} given more than once")
    return tuple(out)


def _text(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where} must be a non-empty string, not {value!r}")
    return value


def _choice(where: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ConfigError(f"{where} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


def load_settings(config: pytest.Config) -> Settings:
    """Every setting resolved once (CLI > pyproject > default) and checked, with its source named."""
    root = Path(config.rootpath)
    table, pyproject = read_pyproject(root)
    where = f"{pyproject} [tool.ponybench]" if pyproject else "[tool.ponybench]"
    unknown = sorted(set(table) - set(DEFAULTS) - {"arms"})
    if unknown:
        raise ConfigError(
            f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted([*DEFAULTS, 'arms']))})"
        )
    src = _Source(config, table, pyproject)
    arms_table = table.get("arms", {})
    if not isinstance(arms_table, dict):
        raise ConfigError(f"{where}: key 'arms' must be a table of arm name -> arm")
    models = names(*src.pick(OPT_MODELS, "models"))
    if not models:
        raise ConfigError(f"{src.pick(OPT_MODELS, 'models')[0]}: give at least one model")
    tasks_where, tasks_value = src.pick(OPT_TASKS_DIR, "tasks")
    settings = Settings(
        root=root,
        tasks_dir=root / _text(tasks_where, tasks_value),
        fixtures_dir=root / _text(*src.pick(None, "fixtures")),
        out_dir=root / _text(*src.pick(OPT_OUT, "out")),
        models=models,
        runs=count(*src.pick(OPT_RUNS, "runs"), 1, MAX_RUNS),
        cell_timeout=seconds(*src.pick(OPT_CELL_TIMEOUT, "cell_timeout"), 1, MAX_SECONDS),
        max_turns=count(*src.pick(OPT_MAX_TURNS, "max_turns"), 1, MAX_TURNS),
        claude=_text(*src.pick(OPT_CLAUDE, "claude")),
        task_filter=names(OPT_TASKS, config.getoption(OPT_TASKS)),
        arm_names=names(OPT_ARMS, config.getoption(OPT_ARMS)),
        arm_specs=tuple(config.getoption(OPT_ARM) or ()),
        arms_table=arms_table,
        pyproject=pyproject,
        tasks_dir_given=not tasks_where.startswith("the default"),
        retries=count(*src.pick(OPT_RETRIES, "retries"), 0, MAX_RETRIES),
        budget_usd=dollars(*src.pick(OPT_BUDGET, "budget_usd")),
        max_budget_usd=dollars(*src.pick(OPT_CELL_BUDGET, "max_budget_usd")),
        warmup=_choice(*src.pick(OPT_WARMUP, "warmup"), ("auto", "on", "off")),
        shard=_shard(config.getoption(OPT_SHARD)),
        offline_latency=seconds(*src.pick(OPT_OFFLINE_LATENCY, "offline_latency"), 0, 3600),
        stop_after_invalid=count(*src.pick(OPT_STOP_AFTER, "stop_after_invalid"), 0, MAX_CELLS),
        max_workspace_mb=count(*src.pick(OPT_MAX_WS_MB, "max_workspace_mb"), 1, 1 << 20),
        max_workspace_files=count(*src.pick(OPT_MAX_WS_FILES, "max_workspace_files"), 10, 10_000_000),
    )
    return settings


def _shard(value: str | None) -> Shard | None:
    if value is None:
        return None
    try:
        return parse_shard(value)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


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


def _points_at(config: pytest.Config, folder: Path) -> bool:
    """Whether the command line's paths lie in, on, or above the benchmark folder."""
    folder = folder.resolve()
    for arg in config.args:
        path = (Path(config.invocation_params.dir) / arg.split("::")[0]).resolve()
        if path == folder or folder in path.parents or path in folder.parents:
            return True
    return False


def requested_mode(config: pytest.Config) -> tuple[Mode, Settings] | None:
    """The mode this run asks for, or None when it is not about the benchmark at all.

    Cheap on purpose: it reads pyproject.toml and looks at the paths, nothing else, so a project
    that merely has the package installed pays nothing and sees nothing.
    """
    selftest = bool(config.getoption(OPT_SELFTEST))
    resume, rescore = config.getoption(OPT_RESUME), config.getoption(OPT_RESCORE)
    if resume and rescore:
        raise ConfigError(f"{OPT_RESUME} and {OPT_RESCORE} exclude each other")
    if selftest and (resume or rescore):
        raise ConfigError(f"{OPT_SELFTEST} runs no cell: it takes neither {OPT_RESUME} nor {OPT_RESCORE}")
    own = any(config.getoption(o) for o in _OWN_OPTIONS)
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
            raise ConfigError(
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


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("ponybench", "benchmark Claude Code arms (pytest-ponybench)")
    group.addoption(OPT_SELFTEST, action="store_true", default=False, help=HELP[OPT_SELFTEST])
    group.addoption(OPT_MODELS, default=None, help=HELP[OPT_MODELS])
    group.addoption(OPT_ARMS, default=None, help=HELP[OPT_ARMS])
    group.addoption(OPT_ARM, action="append", default=None, metavar="NAME=KIND:VALUE", help=HELP[OPT_ARM])
    group.addoption(OPT_RUNS, default=None, help=HELP[OPT_RUNS])
    group.addoption(OPT_TASKS, default=None, help=HELP[OPT_TASKS])
    group.addoption(OPT_CELL_TIMEOUT, default=None, help=HELP[OPT_CELL_TIMEOUT])
    group.addoption(OPT_MAX_TURNS, default=None, help=HELP[OPT_MAX_TURNS])
    group.addoption(OPT_CLAUDE, default=None, help=HELP[OPT_CLAUDE])
    group.addoption(OPT_OUT, default=None, help=HELP[OPT_OUT])
    group.addoption(OPT_TASKS_DIR, default=None, help=HELP[OPT_TASKS_DIR])
    group.addoption(OPT_RESCORE, default=None, metavar="RUN_DIR", help=HELP[OPT_RESCORE])
    group.addoption(OPT_RESUME, default=None, metavar="RUN_DIR", help=HELP[OPT_RESUME])
    group.addoption(OPT_PREFLIGHT, action="store_true", default=False, help=HELP[OPT_PREFLIGHT])
    group.addoption(OPT_SKIP_PREFLIGHT, action="store_true", default=False, help=HELP[OPT_SKIP_PREFLIGHT])
    group.addoption(OPT_BUDGET, default=None, metavar="USD", help=HELP[OPT_BUDGET])
    group.addoption(OPT_CELL_BUDGET, default=None, metavar="USD", help=HELP[OPT_CELL_BUDGET])
    group.addoption(OPT_RETRIES, default=None, metavar="N", help=HELP[OPT_RETRIES])
    group.addoption(OPT_WARMUP, default=None, choices=("auto", "on", "off"), help=HELP[OPT_WARMUP])
    group.addoption(OPT_NO_REPORT, action="store_true", default=False, help=HELP[OPT_NO_REPORT])
    group.addoption(OPT_ALLOW_UNCONFINED, action="store_true", default=False, help=HELP[OPT_ALLOW_UNCONFINED])
    group.addoption(OPT_SHARD, default=None, metavar="I/N", help=HELP[OPT_SHARD])
    group.addoption(OPT_OFFLINE_LATENCY, default=None, metavar="SECONDS", help=HELP[OPT_OFFLINE_LATENCY])
    group.addoption(OPT_STOP_AFTER, default=None, metavar="N", help=HELP[OPT_STOP_AFTER])
    group.addoption(OPT_MAX_WS_MB, default=None, metavar="MIB", help=HELP[OPT_MAX_WS_MB])
    group.addoption(OPT_MAX_WS_FILES, default=None, metavar="N", help=HELP[OPT_MAX_WS_FILES])
