"""Settings: `[tool.ponybench]` in pyproject.toml, overridden by command-line options.

Resolved once per session (CLI > pyproject > default) so every module reads one object.
"""

from __future__ import annotations

import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

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
OPT_RETRIES = "--retries"
OPT_WARMUP = "--warmup"
# Command line only, never a pyproject key: running an unconfined agent is a choice per run.
OPT_ALLOW_UNCONFINED = "--allow-unconfined"

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
}

HELP = {
    OPT_ALLOW_UNCONFINED: "run paid models even where the agent cannot be confined (no bubblewrap "
    "or no user namespaces): the agent can then read and change anything the harness's user can",
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
    OPT_WARMUP: "prompt-cache warm-up call per (model, arm) before the cells: auto (live models "
    "only), on, off",
    OPT_RESUME: "finish RUN_DIR: the same grid as that run, running only the cells without a "
    "valid record, appending to the same run dir",
}


# A bad option or [tool.ponybench] value, with the key or flag named: a usage error for pytest.
ConfigError = pytest.UsageError


def read_pyproject(rootdir: Path) -> tuple[dict[str, Any], Path | None]:
    """The [tool.ponybench] table of rootdir's pyproject.toml (empty when there is none)."""
    path = rootdir / "pyproject.toml"
    if not path.is_file():
        return {}, None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    table = data.get("tool", {}).get("ponybench", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.ponybench] must be a table")
    return table, path


def _split(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    items = value if isinstance(value, list) else value.split(",")
    return [str(v).strip() for v in items if str(v).strip()]


@dataclass
class Settings:
    root: Path
    tasks_dir: Path
    fixtures_dir: Path
    out_dir: Path
    models: list[str]
    runs: int
    cell_timeout: float
    max_turns: int
    claude: str
    task_filter: list[str]
    arm_names: list[str]
    arm_specs: list[str]
    arms_table: dict[str, Any] = field(default_factory=dict)
    pyproject: Path | None = None
    selftest_only: bool = False
    retries: int = 1
    budget_usd: float | None = None
    max_budget_usd: float | None = None
    warmup: str = "auto"

    def resolve_claude(self) -> str | None:
        """Absolute path of the claude binary, or None when it cannot be found."""
        candidate = Path(self.claude).expanduser()
        if candidate.parent != Path(".") and candidate.is_file():
            return str(candidate.resolve())
        return shutil.which(self.claude)


def _number(name: str, value: Any, kind: type, minimum: float) -> Any:
    try:
        number = kind(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a number, not {value!r}") from None
    if number < minimum:
        raise ConfigError(f"{name} must be at least {minimum:g}, not {value!r}")
    return number


def load_settings(config: pytest.Config) -> Settings:
    root = Path(config.rootpath)
    table, pyproject = read_pyproject(root)
    where = f"{pyproject} [tool.ponybench]" if pyproject else "[tool.ponybench]"
    unknown = sorted(set(table) - set(DEFAULTS) - {"arms"})
    if unknown:
        raise ConfigError(
            f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted([*DEFAULTS, 'arms']))})"
        )

    def pick(opt: str, key: str) -> Any:
        cli = config.getoption(opt)
        return cli if cli is not None else table.get(key, DEFAULTS[key])

    tasks_dir = root / str(pick(OPT_TASKS_DIR, "tasks"))
    arms_table = table.get("arms", {})
    if not isinstance(arms_table, dict):
        raise ConfigError(f"{where}: key 'arms' must be a table of arm name -> arm")
    models = _split(pick(OPT_MODELS, "models"))
    if not models:
        raise ConfigError(f"{OPT_MODELS}: give at least one model")
    return Settings(
        root=root,
        tasks_dir=tasks_dir,
        fixtures_dir=root / str(table.get("fixtures", DEFAULTS["fixtures"])),
        out_dir=root / str(pick(OPT_OUT, "out")),
        models=models,
        runs=_number(OPT_RUNS, pick(OPT_RUNS, "runs"), int, 1),
        cell_timeout=_number(OPT_CELL_TIMEOUT, pick(OPT_CELL_TIMEOUT, "cell_timeout"), float, 1),
        max_turns=_number(OPT_MAX_TURNS, pick(OPT_MAX_TURNS, "max_turns"), int, 1),
        claude=str(pick(OPT_CLAUDE, "claude")),
        task_filter=_split(config.getoption(OPT_TASKS)),
        arm_names=_split(config.getoption(OPT_ARMS)),
        arm_specs=list(config.getoption(OPT_ARM) or []),
        arms_table=arms_table,
        pyproject=pyproject,
        selftest_only=bool(config.getoption(OPT_SELFTEST)),
        retries=_number(OPT_RETRIES, pick(OPT_RETRIES, "retries"), int, 0),
        budget_usd=_optional(OPT_BUDGET, pick(OPT_BUDGET, "budget_usd")),
        max_budget_usd=_optional(OPT_CELL_BUDGET, pick(OPT_CELL_BUDGET, "max_budget_usd")),
        warmup=_choice(OPT_WARMUP, pick(OPT_WARMUP, "warmup"), ("auto", "on", "off")),
    )


def _optional(name: str, value: Any) -> float | None:
    if value is None:
        return None
    number = _number(name, value, float, 0)
    if number <= 0:
        raise ConfigError(f"{name} must be more than 0, not {value!r}")
    return float(number)


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


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
    group.addoption(OPT_ALLOW_UNCONFINED, action="store_true", default=False, help=HELP[OPT_ALLOW_UNCONFINED])
