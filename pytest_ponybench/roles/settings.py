"""The options through pytest: registered from the option table (plan/options.py), read from
pytest's config into `Settings` once per session (CLI > environment > ini > pyproject > default,
each value's source named), and the mode a run asks for.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench._util.paths import SUITE, SUITE_FIXTURES, SUITE_TASKS
from pytest_ponybench.core.names import model_problem
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.plan import options
from pytest_ponybench.plan.options import (
    DIRECTIONS,
    INI_PREFIX,
    OPT_DIRECTION,
    OPT_MAX_RUNS,
    OPT_MAX_TASKS,
    OPT_MODELS,
    OPT_OUT,
    OPT_RESCORE,
    OPT_RESUME,
    OPT_RUNS,
    OPT_SELFTEST,
    OPT_TASKS_DIR,
    OPT_UNTIL_DECIDED,
    Mode,
    Option,
    Resume,
    Settings,
    dest,
    long_name,
    names,
    read_pyproject,
)

__all__ = [
    "add_options",
    "alias_short_names",
    "arg_paths",
    "builtin_suite",
    "given_by_user",
    "load_settings",
    "option",
    "requested_mode",
]


def given_by_user(config: pytest.Config, *flags: str) -> bool:
    """Whether the user chose one of these options of pytest's or a plugin's (on the command
    line, in PYTEST_ADDOPTS or in the ini file's addopts): their choice is kept."""
    args = [*config.invocation_params.args, *os.environ.get("PYTEST_ADDOPTS", "").split()]
    args += [str(a) for a in config.getini("addopts")]
    return any(a == f or a.startswith(f) for a in args for f in flags)


def option(config: pytest.Config, opt: str) -> Any:
    """The command line's value of an option, by the name users type."""
    return config.getoption(dest(opt))


class _Source:
    """One setting's value and where it came from (flag, environment, ini option, pyproject key
    or default)."""

    def __init__(self, config: pytest.Config, table: dict[str, Any], pyproject: Path | None) -> None:
        self.config, self.table, self.pyproject = config, table, pyproject

    def pick(self, row: Option) -> tuple[str, Any]:
        """(where, value): the flag if given, else its environment variable, else the ini option
        (pytest.ini, tox.ini, setup.cfg, [tool.pytest.ini_options] or -o), else the pyproject
        key, else the default."""
        cli = option(self.config, row.flag) if row.flag else None
        if cli is not None:
            return row.flag or str(row.key), cli
        if row.env is not None and (env := os.environ.get(row.env)) is not None:
            return f"environment variable {row.env}", env
        if row.key is None:
            return str(row.flag), row.default
        ini = INI_PREFIX + row.key
        value = self.config.getini(ini)
        if value is not None:
            where = f"ini option {ini}" + (f" in {self.config.inipath}" if self.config.inipath else "")
            return where, value
        if row.key in self.table:
            where = f"[tool.ponybench] {row.key}" + (f" in {self.pyproject}" if self.pyproject else "")
            return where, self.table[row.key]
        return f"the default {row.key}", row.default

    def value(self, row: Option) -> Any:
        return row.parse(*self.pick(row))


def load_settings(config: pytest.Config) -> Settings:
    """Every setting resolved once (CLI > environment > ini > pyproject > default) and checked,
    with its source named: one row of OPTIONS each."""
    root = Path(config.rootpath)
    table, pyproject = read_pyproject(root)
    where = f"{pyproject} [tool.ponybench]" if pyproject else "[tool.ponybench]"
    unknown = sorted(set(table) - set(options.DEFAULTS) - {"arms"})
    if unknown:
        known = ", ".join(sorted([*options.DEFAULTS, "arms"]))
        raise PonybenchError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {known})")
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
    models_where, models = src.pick(options.ROWS[OPT_MODELS])
    models = names(models_where, models)
    if not models:
        raise PonybenchError(f"{models_where}: give at least one model")
    for model in models:  # each is part of a cell id, and so of a folder's name
        if (problem := model_problem(model)) is not None:
            raise PonybenchError(f"{models_where}: the model {problem}")
    tasks_row = options.ROWS[OPT_TASKS_DIR]
    tasks_where, tasks_value = src.pick(tasks_row)
    values = {
        o.setting: src.value(o)
        for o in options.OPTIONS
        if o.setting is not None and not o.by_hand and o.flag != OPT_MODELS
    }
    settings = Settings(
        root=root,
        tasks_dir=SUITE_TASKS if suite else root / tasks_row.parse(tasks_where, tasks_value),
        fixtures_dir=SUITE_FIXTURES if suite else root / src.value(options.KEYED["fixtures"]),
        out_dir=root / src.value(options.ROWS[OPT_OUT]),
        models=models,
        arms_table=arms_table,
        pyproject=pyproject,
        tasks_dir_given=suite or not tasks_where.startswith("the default"),
        # The grid flags as given on the command line (a resume compares them with its run's).
        grid_given={
            o.flag: v
            for o in options.OPTIONS
            if o.resume is Resume.FIXED and o.flag and (v := option(config, o.flag)) is not None
        },
        xdist_dist=str(config.getoption("dist", "no")),
        xdist_workers=None if (n := config.getoption("numprocesses", None)) is None else str(n),
        builtin_suite=suite,
        **values,
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
    if settings.direction != DIRECTIONS[0]:
        raise PonybenchError(
            f"{OPT_DIRECTION} {settings.direction}: the sequential design of {OPT_UNTIL_DECIDED} is "
            f"two-sided; a directional test is for a fixed design (--runs)"
        )
    return replace(
        settings,
        until_decided=True,
        runs=src.value(options.ROWS[OPT_MAX_RUNS]),
        max_tasks=options.ROWS[OPT_MAX_TASKS].parse(OPT_MAX_TASKS, max_tasks),
    )


# Options that only mean something to ponybench: given any of them, a missing tasks folder is an
# error rather than a sign that this pytest run is not about the benchmark.
_OWN_OPTIONS = tuple(o.flag for o in options.OPTIONS if o.own and o.flag is not None)


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
        if not (Path(config.rootpath) / str(options.DEFAULTS["tasks"])).is_dir():
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


def add_options(parser: pytest.Parser) -> None:
    """Every option under its own prefix (no clash with another plugin's `--models`), with the
    short form named in its help; every setting also as an ini option `ponybench_<key>`, with
    the flag's help text."""
    group = parser.getgroup(*options.SECTIONS[OPT_MODELS])
    for row in options.OPTIONS:
        if row.flag is None:
            continue
        opt = row.flag
        if opt in options.SECTIONS:
            group = parser.getgroup(*options.SECTIONS[opt])
        short = f" [also {opt} where no other plugin uses it]" if long_name(opt) != opt else ""
        # argparse %-formats help text: a literal % must reach it doubled.
        help_text = (row.help + short).replace("%", "%%")
        kwargs: dict[str, Any] = {"dest": dest(opt), "help": help_text}
        if row.action == "store_true":
            kwargs.update(action="store_true", default=False)
        else:
            kwargs.update(action=row.action, default=None)
        if row.choices is not None:
            kwargs["choices"] = row.choices
        if row.metavar is not None:
            kwargs["metavar"] = row.metavar
        group.addoption(long_name(opt), **kwargs)
    for row in options.OPTIONS:
        if row.key is not None:
            parser.addini(INI_PREFIX + row.key, row.help + " (the command line wins)", default=None)


def _owned_elsewhere(parser: pytest.Parser) -> set[str]:
    """Option names registered by anything else: pytest, plugins, conftest.py files."""
    groups = [getattr(parser, "_anonymous", None), *getattr(parser, "_groups", [])]
    return {name for g in groups if g is not None for o in g.options for name in o.names()}


def alias_short_names(parser: pytest.Parser, args: list[str]) -> None:
    """Rewrite `--models X` into `--ponybench-models X` in place, for every short name nobody
    else registered, once the initial conftests have added their options. A project whose
    conftest defines `--models` keeps it; ponybench's is then `--ponybench-models`."""
    taken = _owned_elsewhere(parser)
    free = {opt: long_name(opt) for opt in options.HELP if long_name(opt) != opt and opt not in taken}
    for i, arg in enumerate(args):
        if arg == "--":
            break
        name, eq, value = arg.partition("=")
        if name in free:
            args[i] = free[name] + eq + value
