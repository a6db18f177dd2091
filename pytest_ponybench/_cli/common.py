"""What the subcommands share: exit codes, run dirs (and CPE results) read as records, the
baseline and the procedure the user picked, and the two ways of printing."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeAlias

from pytest_ponybench import cpe
from pytest_ponybench.analysis import agents, procedure, stats, verdict
from pytest_ponybench.core.records import Record
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.store import results, runinfo

__all__ = [
    "BROKEN_PIPE",
    "GATE_FAILED",
    "INTERNAL",
    "OK",
    "USAGE",
    "Subparsers",
    "axis_option",
    "baseline_option",
    "command",
    "direction_option",
    "emit",
    "folder_options",
    "is_cpe",
    "label",
    "load_records",
    "markdown_option",
    "note",
    "pick_baseline",
    "procedure_of",
    "procedure_options",
    "project_folders",
    "require_records",
    "required_baseline",
    "rerun_command",
    "one_run_arguments",
    "run_info",
    "run_verdicts",
    "tasks_out_option",
    "write_html",
]

OK, GATE_FAILED, USAGE, INTERNAL = 0, 1, 2, 3
BROKEN_PIPE = 128 + 13  # the shell's code for a process ended by SIGPIPE

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def command(
    sub: Subparsers,
    name: str,
    run: Callable[[argparse.Namespace], int],
    description: str | None,
    help: str,
    epilog: str | None = None,
) -> argparse.ArgumentParser:
    """A subcommand's parser, `run` what `main` calls with its arguments. The description is its
    module's docstring (its lines joined): what the subcommand does is written once, for its readers
    and its users."""
    text = " ".join(description.split()) if description else None
    parser = sub.add_parser(name, help=help, description=text, epilog=epilog)
    parser.set_defaults(func=run)
    return parser


# The arguments several subcommands take, worded once.


def one_run_arguments(parser: argparse.ArgumentParser, markdown: bool = False) -> None:
    """What a command over one run's verdicts takes: RUN_DIR, --baseline, (--markdown),
    --primary and --family."""
    parser.add_argument("run_dir", metavar="RUN_DIR", help="runs/<stamp> (any folder with results.jsonl)")
    baseline_option(parser)
    if markdown:
        markdown_option(parser)
    procedure_options(parser)


def baseline_option(
    parser: argparse.ArgumentParser, help: str = "the arm the others are compared with (default: baseline)"
) -> None:
    parser.add_argument("--baseline", metavar="ARM", help=help)


def markdown_option(
    parser: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup,
    help: str = "Markdown, to paste into a pull request",
) -> None:
    parser.add_argument("--markdown", action="store_true", help=help)


def tasks_out_option(parser: argparse.ArgumentParser) -> None:
    """-o: where an importer writes its task folders."""
    parser.add_argument(
        "-o", "--out", default="benchmarks/tasks", metavar="TASKS_DIR", help="default benchmarks/tasks"
    )


def axis_option(parser: argparse.ArgumentParser, graders: str, passing: str) -> None:
    """--axis of an importer: whether the imported `graders` decide the correct axis too, and when
    they pass as a whole (`passing`)."""
    parser.add_argument(
        "--axis",
        choices=("score", "correct"),
        default="score",
        help=f"what the {graders} decide: the cell's score only (default), or also its correct axis "
        f"({passing}), which needs references that prove them",
    )


def folder_options(parser: argparse.ArgumentParser, fixtures: bool = False) -> None:
    """--tasks-dir (and --fixtures-dir), read back by `project_folders`."""
    parser.add_argument("--tasks-dir", metavar="DIR", help="the tasks folder (default from ./pyproject.toml)")
    if fixtures:
        parser.add_argument(
            "--fixtures-dir", metavar="DIR", help="the fixtures folder (default from ./pyproject.toml)"
        )


def project_folders(tasks_dir: str | None = None, fixtures_dir: str | None = None) -> tuple[Path, Path]:
    """The tasks and fixtures folders of the project here: the flags given, else those of
    ./pyproject.toml's [tool.ponybench] (as `pytest` there reads them), else the defaults."""
    from pytest_ponybench.plan.options import DEFAULTS, read_pyproject

    table, _ = read_pyproject(Path.cwd())
    tasks = tasks_dir or table.get("tasks") or DEFAULTS["tasks"]
    fixtures = fixtures_dir or table.get("fixtures") or DEFAULTS["fixtures"]
    if not isinstance(tasks, str) or not isinstance(fixtures, str):
        raise PonybenchError("pyproject.toml [tool.ponybench]: tasks and fixtures must be strings")
    return Path(tasks), Path(fixtures)


def load_records(path_text: str, per_agent: bool = True) -> list[Record]:
    """The records of a run dir (or of a results.jsonl given directly); torn lines are skipped.
    A `claude plugin eval` aggregate-result.json (or its results folder) reads as records too.
    per_agent: as the figures read them, each model named with its agent in a run of agents
    other than claude alone (`analysis.agents.by_agent`); False: as written."""
    path = Path(path_text)
    if is_cpe(path):
        return _cpe_records(path)
    if path.is_file() and path.name.endswith(".jsonl"):
        file = path
    elif not path.exists():
        raise PonybenchError(f"{path}: no such run dir")
    elif not path.is_dir():
        raise PonybenchError(f"{path}: not a run dir (a folder with {results.RESULTS})")
    else:
        file = path / results.RESULTS
        if not file.is_file():
            hint = ""
            rescores = sorted(p.name for p in path.glob("rescore-*") if (p / results.RESULTS).is_file())
            if rescores:
                hint = f"; its rescores are run dirs: {', '.join(str(path / r) for r in rescores)}"
            raise PonybenchError(f"{path}: no {results.RESULTS} in it, so not a run dir{hint}")
    try:
        found = results.read_records(file)
    except OSError as exc:
        raise PonybenchError(f"{file}: cannot read it: {exc.strerror or exc}") from exc
    return agents.by_agent(found) if per_agent else found


def is_cpe(path: Path) -> bool:
    """A `claude plugin eval` aggregate-result.json, or a folder holding one and no results.jsonl."""
    return path.suffix == ".json" or (
        path.is_dir() and (path / cpe.AGGREGATE_FILE).is_file() and not (path / results.RESULTS).exists()
    )


def _cpe_records(path: Path) -> list[Record]:
    try:
        agg = cpe.read_aggregate(path)
    except cpe.AggregateError as exc:
        raise PonybenchError(str(exc)) from exc
    note(cpe.describe(agg))
    for text in agg.notes:
        note(text)
    return agg.records


def require_records(records: Sequence[Any], path_text: str) -> None:
    if not records:
        raise PonybenchError(f"{path_text}: {results.RESULTS} holds no finished cell")


def required_baseline(records: Sequence[Any], explicit: str | None, where: str) -> str:
    """The baseline arm, for a command that has nothing to say without one."""
    baseline = pick_baseline(records, explicit, where)
    if baseline is None:
        raise PonybenchError(
            f"no arm named 'baseline' in {where}; pick the baseline with --baseline "
            f"(arms present: {', '.join(verdict.arms_of(records))})"
        )
    return baseline


def pick_baseline(records: Sequence[Any], explicit: str | None, where: str) -> str | None:
    """The baseline arm; an explicit unknown one is an error, a missing default is None."""
    arms = verdict.arms_of(records)
    name = explicit or "baseline"
    if name in arms:
        return name
    if explicit is not None:
        raise PonybenchError(
            f"no arm {explicit!r} with valid cells in {where}; arms present: {', '.join(arms) or 'none'}"
        )
    return None


def procedure_of(args: argparse.Namespace, records: Sequence[Any], where: str) -> tuple[str, str]:
    """The primary metric and the family the user declared, checked against the records."""
    try:
        primary = stats.canonical_metric(args.primary)
    except ValueError as exc:
        raise PonybenchError(f"--primary: {exc}") from exc
    if primary == stats.SCORE and not stats.has_scores(records):
        raise PonybenchError(f"--primary score: no cell in {where} has a score (graders give one)")
    return primary, args.family


def procedure_options(parser: argparse.ArgumentParser) -> None:
    """--primary and --family, read back by `procedure_of`."""
    parser.add_argument(
        "--primary",
        metavar="METRIC",
        default=stats.PRIMARY,
        help="the pre-declared primary metric, tested first at most of the level (default: pass; "
        "also score, loc, cost, tokens, time, correct, safe)",
    )
    parser.add_argument(
        "--family",
        choices=procedure.FAMILIES,
        default="model",
        help="whose familywise error is held at 5%%: every arm of one model (default) or every arm "
        "and model of the run",
    )


def run_info(path_text: str) -> runinfo.RunInfo:
    """A run dir's run.json, typed; empty where there is none (a results.jsonl, CPE's results)
    or it cannot be read (the records' fixed design, two-sided)."""
    path = Path(path_text)
    if not path.is_dir() or is_cpe(path):
        return runinfo.RunInfo()
    try:
        return results.RunDir(path).info()
    except (OSError, runinfo.RunInfoError):
        return runinfo.RunInfo()


def run_verdicts(
    records: list[Record],
    path_text: str,
    baseline: str,
    primary: str,
    family: str,
    direction: str | None = None,
) -> verdict.RunVerdicts:
    """A run dir's verdicts as its design says (a sequential run's at its last look), the primary
    tested in `direction` (None: as the run declared it in run.json, else two-sided)."""
    info = run_info(path_text)
    way = direction or info.options.direction or stats.TWO_SIDED
    try:
        return verdict.run_verdicts(
            records, info.design(), baseline, primary=primary, family=family, direction=way
        )
    except ValueError as exc:
        raise PonybenchError(f"{path_text}: {exc}") from exc


def rerun_command(path_text: str) -> str:
    """The command that reruns a run's invalid cells: a resume runs every cell without a valid
    attempt. The benchmark folder is the one the run was started with, as run.json's argv says."""
    path = Path(path_text)
    if is_cpe(path):
        return "claude plugin eval again (its invalid runs measured nothing about the plugin)"
    argv = list(run_info(path_text).argv or ())
    bench = "<your benchmarks folder>"
    if argv:
        positional = [a for a in argv[1:] if not a.startswith("-")][:1]
        leading = argv[1 : 1 + len(positional)] == positional
        if positional and leading:
            bench = positional[0]
    return f"pytest {bench} --resume {path_text.rstrip('/') or path_text}"


def direction_option(parser: argparse.ArgumentParser) -> None:
    """--direction: the primary's test, read back by `run_verdicts` (None: the run's own)."""
    parser.add_argument(
        "--direction",
        choices=procedure.DIRECTIONS,
        default=None,
        help="how the primary is tested: two-sided, or better (the pre-declared one-sided test "
        "for better at p < 0.04, worse at p < 0.005); default: what the run declared, else two-sided",
    )


def label(path_text: str) -> str:
    """A run's name in a comparison: its path as typed, without a trailing slash."""
    return path_text.rstrip("/") or path_text


def write_html(runs: Sequence[str], out: Path | None, baseline: str = "baseline") -> Path:
    """The HTML report of one run dir, or of two compared (`report`, `compare --html`)."""
    cpe_inputs = [r for r in runs if is_cpe(Path(r))]
    if cpe_inputs:
        raise PonybenchError(
            f"{cpe_inputs[0]}: the HTML report reads ponybench run dirs; claude plugin eval writes its "
            "own report.html beside aggregate-result.json"
        )
    # Imported here: the plotting library costs the text commands time they do not need.
    from pytest_ponybench import htmlreport

    try:
        if len(runs) == 1:
            return htmlreport.write_report(Path(runs[0]), out, baseline=baseline)
        assert out is not None
        labels = (label(runs[0]), label(runs[1]))  # the names the text verdict uses
        return htmlreport.write_compare_report(Path(runs[0]), Path(runs[1]), out, labels)
    except (htmlreport.NotARunDir, FileExistsError, ValueError) as exc:
        raise PonybenchError(str(exc)) from exc
    except OSError as exc:  # an unwritable -o, a full disk: say which file
        target = out or Path(runs[0]) / htmlreport.REPORT_HTML
        raise PonybenchError(f"{target}: cannot write the report: {exc.strerror or exc}") from exc


def note(text: str) -> None:
    print(f"note: {text}", file=sys.stderr)


def emit(text: str) -> None:
    if text:
        print(text)
