"""The `ponybench` console script: read run dirs from disk, run nothing.

  ponybench summary RUN_DIR [--baseline ARM] [--primary METRIC] [--family model|run] [--markdown]
  ponybench compare RUN [--baseline ARM] [--primary METRIC] [--family model|run] [--fail-on RULES]
                    [--markdown]
  ponybench compare BASE_RUN CAND_RUN [--primary METRIC] [--family model|run] [--fail-on RULES]
                    [--markdown] [--html PATH]
  ponybench noise RUN_DIR [--baseline ARM] [--primary METRIC] [--family model|run]
  ponybench report RUN_DIR [-o PATH]   (writes the HTML report, default RUN_DIR/report.html)
  ponybench merge -o OUT RUN_DIR... [--allow-mixed] [--allow-missing]   (writes OUT only)
  ponybench import-cpe EVALS_DIR [-o TASKS_DIR] [--axis score|correct] [--allow-scaffold]
  ponybench init [DIR] [--with-suite]   (opts a repository in: writes only what is missing)
  ponybench task new NAME [--kind surgical|fixture|open] [--axis safe|correct] [--fixture REPO]

`compare` and `summary` also read `claude plugin eval` results: an aggregate-result.json (or the
folder holding one) stands where a run dir does.

Exit codes: 0 done (and no gate rule failed), 1 a --fail-on rule failed or a merged grid has
cells without a record, 2 a usage or data error (bad rule, unknown arm or metric, a path that is
not a run dir, run dirs of different grids), 3 an internal error (a bug: the traceback follows;
never a verdict). A run dir is any folder with a results.jsonl: `runs/<stamp>/`, one continued
with --resume, or a `rescore-<stamp>/` inside one.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_ponybench import __version__, cpe
from pytest_ponybench.analysis import noise, procedure, report, stats, triggers, verdict
from pytest_ponybench.core.records import Record
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.store import merge as merging
from pytest_ponybench.store import owner, results

__all__ = [
    "BROKEN_PIPE",
    "GATE_FAILED",
    "INTERNAL",
    "OK",
    "USAGE",
    "build_parser",
    "cmd_compare",
    "cmd_init",
    "cmd_merge",
    "cmd_noise",
    "cmd_report",
    "cmd_summary",
    "cmd_task_new",
    "load_records",
    "main",
]

OK, GATE_FAILED, USAGE, INTERNAL = 0, 1, 2, 3
BROKEN_PIPE = 128 + 13  # the shell's code for a process ended by SIGPIPE


def load_records(path_text: str) -> list[Record]:
    """The records of a run dir (or of a results.jsonl given directly); torn lines are skipped.
    A `claude plugin eval` aggregate-result.json (or its results folder) reads as records too."""
    path = Path(path_text)
    if _is_cpe(path):
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
        return results.read_records(file)
    except OSError as exc:
        raise PonybenchError(f"{file}: cannot read it: {exc.strerror or exc}") from exc


def _is_cpe(path: Path) -> bool:
    """A `claude plugin eval` aggregate-result.json, or a folder holding one and no results.jsonl."""
    return path.suffix == ".json" or (
        path.is_dir() and (path / cpe.AGGREGATE_FILE).is_file() and not (path / results.RESULTS).exists()
    )


def _cpe_records(path: Path) -> list[Record]:
    try:
        agg = cpe.read_aggregate(path)
    except cpe.AggregateError as exc:
        raise PonybenchError(str(exc)) from exc
    _note(cpe.describe(agg))
    for text in agg.notes:
        _note(text)
    return agg.records


def _require_records(records: Sequence[Any], path_text: str) -> None:
    if not records:
        raise PonybenchError(f"{path_text}: {results.RESULTS} holds no finished cell")


def _pick_baseline(records: Sequence[Any], explicit: str | None, where: str) -> str | None:
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


def _procedure(args: argparse.Namespace, records: Sequence[Any], where: str) -> tuple[str, str]:
    """The primary metric and the family the user declared, checked against the records."""
    try:
        primary = stats.canonical_metric(args.primary)
    except ValueError as exc:
        raise PonybenchError(f"--primary: {exc}") from exc
    if primary == stats.SCORE and not stats.has_scores(records):
        raise PonybenchError(f"--primary score: no cell in {where} has a score (graders give one)")
    return primary, args.family


def _note(text: str) -> None:
    print(f"note: {text}", file=sys.stderr)


def _emit(text: str) -> None:
    if text:
        print(text)


def cmd_summary(args: argparse.Namespace) -> int:
    records = load_records(args.run_dir)
    table = report.render_table(records) or "no cell finished"
    if args.markdown:
        # Folded: the per-task table is long, the verdict is what a reviewer reads first.
        _emit(
            f"<details><summary>ponybench summary: {args.run_dir}</summary>\n\n```\n{table}\n```\n</details>"
        )
    else:
        _emit(table)
    grading = report.grading_lines(records)
    if grading:
        _emit("\n".join(grading))
    baseline = _pick_baseline(records, args.baseline, args.run_dir)
    arms = verdict.arms_of(records)
    if baseline is None:
        if arms:
            _note(
                f"no arm named 'baseline', so no verdict; pick one with --baseline (arms: {', '.join(arms)})"
            )
        return OK
    if len(arms) < 2:
        _note(f"only the arm {baseline!r}, so no verdict")
        return OK
    primary, family = _procedure(args, records, args.run_dir)
    found = _run_verdicts(records, args.run_dir, baseline, primary, family)
    print()
    if args.markdown:
        _emit(
            verdict.render_rows_markdown(
                found.rows, found.records, heading=f"ponybench verdict: {args.run_dir}"
            )
        )
    else:
        _emit("\n".join([*found.looks, verdict.render_rows(found.rows, found.records)]))
    return OK


def _run_verdicts(
    records: list[Record], path_text: str, baseline: str, primary: str, family: str
) -> verdict.RunVerdicts:
    """A run dir's verdicts as its design says (a sequential run's at its last look)."""
    path = Path(path_text)
    run = results.RunDir(path) if path.is_dir() else None
    try:
        info = run.read_run_json() if run is not None else {}
    except (OSError, ValueError):
        info = {}
    try:
        return verdict.run_verdicts(records, info, baseline, primary=primary, family=family)
    except ValueError as exc:
        raise PonybenchError(f"{path_text}: {exc}") from exc


def _label(path_text: str) -> str:
    return path_text.rstrip("/") or path_text


def cmd_compare(args: argparse.Namespace) -> int:
    if len(args.runs) > 2:
        raise PonybenchError(
            f"compare takes one run (arms within it) or two runs (BASE_RUN CAND_RUN), got {len(args.runs)}"
        )
    effect_rules, trigger_rules = _gate_rules(args.fail_on)
    if len(args.runs) == 1:
        rows, records, heading = _within_one_run(args)
    else:
        rows, records, heading = _between_two_runs(args)
    if args.markdown:
        _emit(verdict.render_rows_markdown(rows, records, heading=heading))
    else:
        _emit(verdict.render_rows(rows, records))
    if args.html is not None:
        _note(f"report: {_write_html(args.runs, Path(args.html), args.baseline or 'baseline')}")
    if args.fail_on is None:
        return OK
    return _gate(args.fail_on, effect_rules, trigger_rules, rows, records, args.markdown)


def _gate_rules(rules: str | None) -> tuple[str, list[tuple[str, float]]]:
    """--fail-on split into the rules on effects (stats.parse_gate checks them) and those on an
    arm's trigger accuracy (missed_fire:N%, false_fire:N%); a malformed rule is an error here,
    before any run is read."""
    if rules is None:
        return "", []
    effect, triggered = [], []
    for raw in rules.split(","):
        name, _, margin = raw.strip().partition(":")
        if name.strip().lower() not in triggers.GATE_METRICS:
            effect.append(raw)
            continue
        text = margin.strip()
        try:
            value = float(text.removesuffix("%"))
        except ValueError:
            value = -1.0
        if not text.endswith("%") or not 0 <= value <= 100:
            raise PonybenchError(
                f"--fail-on: bad gate rule {raw.strip()!r}: {name.strip()} takes a share of cells, 0-100%"
            )
        triggered.append((name.strip().lower(), value))
    effect_rules = ",".join(effect)
    try:
        if not stats.parse_gate(effect_rules) and not triggered:
            raise PonybenchError(f"--fail-on {rules!r} holds no rule")
    except ValueError as exc:
        raise PonybenchError(f"--fail-on: {exc}") from exc
    return effect_rules, triggered


def _within_one_run(args: argparse.Namespace) -> tuple[list[stats.ArmVerdict], list[Record], str]:
    run = args.runs[0]
    records = load_records(run)
    _require_records(records, run)
    baseline = _pick_baseline(records, args.baseline, run)
    arms = verdict.arms_of(records)
    if baseline is None:
        raise PonybenchError(
            f"no arm named 'baseline' in {run}; pick the baseline with --baseline "
            f"(arms present: {', '.join(arms)})"
        )
    if len(arms) < 2:
        raise PonybenchError(
            f"{run} has only the arm {baseline!r}: nothing to compare within it "
            f"(two runs: ponybench compare BASE_RUN CAND_RUN)"
        )
    primary, family = _procedure(args, records, run)
    found = _run_verdicts(records, run, baseline, primary, family)
    for line in found.looks:
        _note(line)
    return found.rows, found.records, f"ponybench verdict: {run}, arms vs {baseline}"


def _between_two_runs(args: argparse.Namespace) -> tuple[list[stats.ArmVerdict], list[Record], str]:
    if args.baseline is not None:
        raise PonybenchError(
            "--baseline picks an arm within one run; with two runs BASE_RUN is the baseline, arm by arm"
        )
    base_run, cand_run = args.runs
    base, cand = load_records(base_run), load_records(cand_run)
    _require_records(base, base_run)
    _require_records(cand, cand_run)
    base_label, cand_label = _label(base_run), _label(cand_run)
    if base_label == cand_label:
        base_label, cand_label = "base", "candidate"
    primary, family = _procedure(args, [*base, *cand], f"{base_run} or {cand_run}")
    try:
        rows, records = verdict.compare_verdicts(
            base, cand, base_label=base_label, cand_label=cand_label, primary=primary, family=family
        )
    except ValueError as exc:
        raise PonybenchError(str(exc)) from exc
    for note in verdict.grid_notes(base, cand, base_label=base_label, cand_label=cand_label):
        _note(f"{note}; compared on the shared grid only")
    return rows, records, f"ponybench verdict: {cand_label} vs {base_label}"


def _gate(
    rules: str,
    effect_rules: str,
    trigger_rules: list[tuple[str, float]],
    rows: list[stats.ArmVerdict],
    records: list[Record],
    md: bool,
) -> int:
    """Test every rule; exit 1 when one fails or measured nothing, else 0."""
    outcomes = verdict.gate_report(rows, effect_rules) if effect_rules else []
    print()
    if len(stats.parse_gate(effect_rules)) + len(trigger_rules) > 1:
        alone = (
            "each rule is tested alone (its own 95% interval against its margin, no adjustment across rules)"
        )
        print(f"_{alone}_" if md else alone)
    for o in outcomes:
        if o.status == stats.UNTESTED:
            print(f"- **UNTESTED** {o.describe()}" if md else f"UNTESTED {o.describe()}")
    failures = [o for o in outcomes if o.status == stats.FAIL]
    fired = triggers.per_arm(records)
    trigger_fails = [
        (f"{metric}:{margin:g}%", text)
        for metric, margin in trigger_rules
        for text in triggers.gate_fails(fired, metric, margin)
    ]
    # No measurement at all (an arm or the baseline without a valid cell) must not read as green.
    blind = [o for o in outcomes if o.effect is None or o.effect.n_tasks == 0]
    if trigger_rules and not fired:
        blind_triggers = ["no cell declares expect_fire with a plugin that registered something to fire"]
    else:
        blind_triggers = []
    if failures or blind or trigger_fails or blind_triggers:
        for f in failures:
            print(f"- **FAIL** {f.describe()}" if md else f"FAIL {f.describe()}")
        for _rule, text in trigger_fails:
            print(f"- **FAIL** {text}" if md else f"FAIL {text}")
        named = sorted({f.rule for f in failures}, key=rules.index)
        named += sorted({rule for rule, _text in trigger_fails})
        failed = ", ".join(named)
        if blind or blind_triggers:
            failed += (
                ("; " if failed else "")
                + "nothing measured for "
                + ", ".join(sorted({_blind(o) for o in blind}) + blind_triggers)
            )
        print(f"\n**Gate failed:** `{failed}`" if md else f"gate failed: {failed}")
        return GATE_FAILED
    passed = "nothing is worse beyond its margin with confidence"
    print(f"**Gate passed:** `{rules}`: {passed}" if md else f"gate passed: {rules}: {passed}")
    return OK


def _blind(o: verdict.GateOutcome) -> str:
    return f"{o.rule} ({o.row['arm']} vs {o.row['baseline']}, {o.row['model']})"


def _write_html(runs: Sequence[str], out: Path | None, baseline: str = "baseline") -> Path:
    cpe_inputs = [r for r in runs if _is_cpe(Path(r))]
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
        labels = (_label(runs[0]), _label(runs[1]))  # the names the text verdict uses
        return htmlreport.write_compare_report(Path(runs[0]), Path(runs[1]), out, labels)
    except (htmlreport.NotARunDir, FileExistsError, ValueError) as exc:
        raise PonybenchError(str(exc)) from exc
    except OSError as exc:  # an unwritable -o, a full disk: say which file
        target = out or Path(runs[0]) / htmlreport.REPORT_HTML
        raise PonybenchError(f"{target}: cannot write the report: {exc.strerror or exc}") from exc


def cmd_noise(args: argparse.Namespace) -> int:
    """The run's noise floor: the smallest pass and cost change it could decide, per model."""
    records = load_records(args.run_dir)
    _require_records(records, args.run_dir)
    baseline = _pick_baseline(records, args.baseline, args.run_dir)
    if baseline is None:
        arms = verdict.arms_of(records)
        raise PonybenchError(
            f"no arm named 'baseline' in {args.run_dir}; pick the baseline with --baseline "
            f"(arms present: {', '.join(arms)})"
        )
    primary, family = _procedure(args, records, args.run_dir)
    rows = verdict.arm_verdicts(records, baseline, primary=primary, family=family)
    found = noise.floors(records, baseline, primary=primary, family=family, rows=rows)
    print(
        f"noise floor of {args.run_dir}: the smallest true change each source could decide with "
        f"80% power, each metric at its level in the verdicts' procedure"
    )
    for model in sorted({f.model for f in found}):
        mine = [f for f in found if f.model == model]
        tasks = max(f.tasks for f in mine)
        runs = max(f.runs for f in mine)
        print(f"\n{model}: {tasks} tasks x {runs:.3g} runs")
        for f in mine:
            print(f"  {f.source}: {noise.describe(f)}")
        for row in rows:
            if row["model"] == model and row["twin"]:
                measured = ", ".join(
                    f"{verdict.METRIC_NAMES[e.metric]} {verdict.fmt_estimate(e)} {verdict.fmt_interval(e)} "
                    f"{verdict.word(e)}"
                    for e in row["effects"]
                    if e.metric in noise.FLOOR_METRICS
                )
                print(f"  measured by {row['arm']}, an A/A twin: {measured}")
    if not found:
        _note("no spread to go by: the floor needs 2 runs per task or an arm to compare")
    elif not any(row["twin"] for row in rows):
        _note(
            "no A/A twin in this run: an arm with the baseline's content (e.g. --arm twin=baseline) "
            "measures the floor instead of computing it"
        )
    return OK


def cmd_report(args: argparse.Namespace) -> int:
    _require_records(load_records(args.run_dir), args.run_dir)  # the same errors as summary's
    run_dir, out = Path(args.run_dir), Path(args.out) if args.out else None
    inside = out is None or run_dir.resolve() in out.resolve().parents
    # Written into the run dir: not while a session writes it (its own report would replace
    # this one, half-way through a read of records still coming).
    held = owner.hold(run_dir, "ponybench report", shared=True) if inside and run_dir.is_dir() else None
    try:
        print(_write_html([args.run_dir], out, args.baseline or "baseline"))
    finally:
        if held is not None:
            held.release()
    return OK


def cmd_merge(args: argparse.Namespace) -> int:
    done = merging.merge([Path(p) for p in args.runs], Path(args.out), allow_mixed=args.allow_mixed)
    recorded = f"{done.recorded} of {done.expected} cells recorded"
    print(f"merged {len(args.runs)} run dir(s) into {done.out}: {recorded}")
    print(f"spend: ${done.spent_usd:.4f} (the parts' spend summed)")
    if done.mixed:
        versions = ", ".join(f"{p}: {v or 'unknown'}" for p, v in done.claude_versions.items())
        _note(f"mixed claude versions, recorded in run.json: {versions}")
    for cell_id, holders in done.duplicates.items():
        where = ", ".join(holders)
        _note(f"cell {cell_id} recorded in {len(holders)} parts ({where}); its last valid attempt counts")
    if not done.missing:
        return OK
    print(f"{len(done.missing)} cell(s) of the grid have no record:")
    for cell_id in done.missing:
        print(f"  missing: {cell_id}")
    print(f"run them with: pytest BENCHMARKS --resume {done.out}")
    return OK if args.allow_missing else GATE_FAILED


def _procedure_options(parser: argparse.ArgumentParser) -> None:
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


def cmd_import_cpe(args: argparse.Namespace) -> int:
    # Imported here: YAML and the importer are for this command only.
    from pytest_ponybench.cpe.cases import CaseError
    from pytest_ponybench.cpe.importer import import_suite, render

    try:
        done = import_suite(
            Path(args.evals_dir), Path(args.out), axis=args.axis, allow_scaffold=args.allow_scaffold
        )
    except CaseError as exc:
        raise PonybenchError("the suite is not imported:\n  " + "\n  ".join(exc.problems)) from exc
    print(render(done))
    return OK


def cmd_init(args: argparse.Namespace) -> int:
    from pytest_ponybench.scaffold.project import init_project, render_init

    print(render_init(init_project(Path(args.dir), with_suite=args.with_suite), Path.cwd()))
    return OK


def cmd_task_new(args: argparse.Namespace) -> int:
    from pytest_ponybench.roles.config import DEFAULTS, read_pyproject
    from pytest_ponybench.scaffold.newtask import new_task, render_new_task

    table, _ = read_pyproject(Path.cwd())  # the project's own folders, as `pytest` there reads them
    tasks = args.tasks_dir or table.get("tasks") or DEFAULTS["tasks"]
    fixtures = table.get("fixtures") or DEFAULTS["fixtures"]
    if not isinstance(tasks, str) or not isinstance(fixtures, str):
        raise PonybenchError("pyproject.toml [tool.ponybench]: tasks and fixtures must be strings")
    done = new_task(
        Path(tasks),
        args.name,
        kind=args.kind,
        axis=args.axis,
        fixture=args.fixture,
        fixtures_dir=Path(fixtures),
        # Folders ./pyproject.toml names must stay in this project; --tasks-dir is the user's word.
        inside=None if args.tasks_dir else Path.cwd().resolve(),
    )
    print(render_new_task(done, Path.cwd()))
    return OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ponybench",
        description="Summaries and verdicts of pytest-ponybench run dirs (reads results.jsonl, "
        "runs nothing).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(
        dest="command", metavar="{summary,compare,noise,merge,report,import-cpe,init,task}"
    )

    p = sub.add_parser(
        "summary",
        help="the summary table and the verdict of one run dir",
        description="Print the summary table and the verdict block of a run dir.",
    )
    p.add_argument("run_dir", metavar="RUN_DIR", help="runs/<stamp> (any folder with results.jsonl)")
    p.add_argument(
        "--baseline", metavar="ARM", help="the arm the others are compared with (default: baseline)"
    )
    p.add_argument("--markdown", action="store_true", help="Markdown, to paste into a pull request")
    _procedure_options(p)
    p.set_defaults(func=cmd_summary)

    c = sub.add_parser(
        "compare",
        help="verdict: arms within one run, or one run against another",
        description="RUN: every arm against --baseline within one run. BASE_RUN CAND_RUN: each "
        "arm both runs have, the candidate run's cells against the base run's. A run may also be a "
        "`claude plugin eval` aggregate-result.json (cases as tasks, the plugin's runs as its arm, "
        "the runs without it as baseline).",
        epilog="RULES: comma-separated metric:margin, e.g. correct:-5pp,loc:+10%%,cost:+20%%; "
        "metrics pass, correct, safe (pp) and loc, cost, tokens, time (%%). Exit 1 only "
        "when an interval lies wholly beyond a margin on the worse side.",
    )
    c.add_argument("runs", nargs="+", metavar="RUN", help="RUN, or BASE_RUN CAND_RUN")
    c.add_argument("--baseline", metavar="ARM", help="with one run: the baseline arm (default: baseline)")
    c.add_argument(
        "--fail-on", metavar="RULES", help="exit 1 when the candidate is worse than a margin with confidence"
    )
    c.add_argument("--markdown", action="store_true", help="Markdown, to paste into a pull request")
    c.add_argument("--html", metavar="PATH", help="also write the comparison as an HTML report at PATH")
    _procedure_options(c)
    c.set_defaults(func=cmd_compare)

    n = sub.add_parser(
        "noise",
        help="the noise floor: the smallest change the run could decide",
        description="The smallest pass-rate and cost change the run could decide with 80%% power, "
        "per model: from the baseline's run-to-run noise, from each comparison's own spread, and "
        "measured by an A/A twin (an arm with the baseline's content) where the run has one.",
    )
    n.add_argument("run_dir", metavar="RUN_DIR", help="runs/<stamp> (any folder with results.jsonl)")
    n.add_argument(
        "--baseline", metavar="ARM", help="the arm the others are compared with (default: baseline)"
    )
    _procedure_options(n)
    n.set_defaults(func=cmd_noise)

    r = sub.add_parser(
        "report",
        help="write the HTML report of a run dir",
        description="Write a self-contained HTML report of a run dir (verdicts, plots, every cell "
        "with its transcript, diff and failed checks, arms side by side); open it from the file "
        "system. Reads the run dir only.",
    )
    r.add_argument("run_dir", metavar="RUN_DIR", help="runs/<stamp>, a rescore-<stamp>/ or a merged run dir")
    r.add_argument(
        "-o", "--out", metavar="PATH", help="the page (default RUN_DIR/report.html); cell files go beside it"
    )
    r.add_argument(
        "--baseline", metavar="ARM", help="the arm the others are compared with (default: baseline)"
    )
    r.set_defaults(func=cmd_report)

    m = sub.add_parser(
        "merge",
        help="join shard run dirs of one grid into one run dir",
        description="Join the run dirs of the shards of one grid (--shard I/N) into OUT, a run dir "
        "every command accepts. Refuses parts of different grids. Exit 1 when cells of the grid "
        "have no record (a shard that never arrived) unless --allow-missing; OUT is written anyway, "
        "and pytest --resume OUT runs exactly the missing cells.",
    )
    m.add_argument("runs", nargs="+", metavar="RUN_DIR", help="the shards' run dirs")
    m.add_argument("-o", "--out", required=True, metavar="OUT", help="the merged run dir (new or empty)")
    m.add_argument(
        "--allow-mixed", action="store_true", help="merge parts run by different claude versions (recorded)"
    )
    m.add_argument("--allow-missing", action="store_true", help="exit 0 even when cells have no record")
    m.set_defaults(func=cmd_merge)

    i = sub.add_parser(
        "import-cpe",
        help="write a `claude plugin eval` suite as task folders",
        description="Read a `claude plugin eval` suite (case.yaml, or prompt.md with front matter and "
        "graders/<name>.md) and write one task folder per case under TASKS_DIR, with [[graders]] and the "
        "case's agent settings in task.toml. Prints the arm for the plugin and a checklist of what has no "
        "equivalent (also in each task's IMPORTED.md). Never overwrites a task folder; a malformed suite is "
        "refused whole, every problem named.",
    )
    i.add_argument(
        "evals_dir", metavar="EVALS_DIR", help="the eval dir (e.g. evals/), one case, or the plugin's root"
    )
    i.add_argument(
        "-o", "--out", default="benchmarks/tasks", metavar="TASKS_DIR", help="default benchmarks/tasks"
    )
    i.add_argument(
        "--axis",
        choices=("score", "correct"),
        default="score",
        help="what the graders decide: the cell's score only (default), or also its correct axis "
        "(CPE's pass: every grader passes), which needs references that prove them",
    )
    i.add_argument(
        "--allow-scaffold",
        action="store_true",
        help="run each case's scaffold_script once (author-supplied bash, as you) and seed its files",
    )
    i.set_defaults(func=cmd_import_cpe)

    init = sub.add_parser(
        "init",
        help="opt a repository in: conftest.py, starter tasks, [tool.ponybench]",
        description="Write what a repository needs to benchmark with pytest-ponybench: the root "
        "conftest.py (the project's hooks), benchmarks/test_cells.py, four starter tasks (hidden checks, "
        "reply graders, tool path, a judge) whose references pass the selftest at once, and a "
        "[tool.ponybench] block in pyproject.toml (appended; a new pyproject.toml holding only it where "
        "there is none) with an arm for each Claude Code plugin found (.claude-plugin/plugin.json), or an "
        "example prompt arm. Never overwrites a file: what exists is reported and left as it is.",
    )
    init.add_argument("dir", nargs="?", default=".", metavar="DIR", help="the repository (default: here)")
    init.add_argument(
        "--with-suite",
        action="store_true",
        help="also copy the shipped suite (its tasks, fixtures and the example plugin) in, for editing",
    )
    init.set_defaults(func=cmd_init)

    task = sub.add_parser("task", help="task folders: `task new NAME` scaffolds one")
    task_sub = task.add_subparsers(dest="task_command", metavar="{new}", required=True)
    new = task_sub.add_parser(
        "new",
        help="scaffold a task folder",
        description="Write benchmarks/tasks/NAME (or [tool.ponybench] tasks of ./pyproject.toml): "
        "task.toml with every key commented, prompt.md, seed/, good/, bad/ and checks/, around a small "
        "placeholder task that passes the selftest, whose summary then says what the references still "
        "lack. Refuses an existing folder and a bad name.",
    )
    new.add_argument(
        "name", metavar="NAME", help="the task id: letters, digits, _ and -, starting with a letter"
    )
    new.add_argument(
        "--kind",
        choices=("surgical", "fixture", "open"),
        default="surgical",
        help="surgical: write a file (default) | fixture: edit a copied repository | open: answer in chat",
    )
    new.add_argument(
        "--axis",
        choices=("safe", "correct"),
        default="safe",
        help="what the bad reference fails (default safe)",
    )
    new.add_argument(
        "--fixture",
        metavar="REPO",
        help="with --kind fixture: the folder under fixtures/ (default NAME; a new one gets a README)",
    )
    new.add_argument("--tasks-dir", metavar="DIR", help="the tasks folder (default from ./pyproject.toml)")
    new.set_defaults(func=cmd_task_new)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return USAGE
    try:
        code: int = args.func(args)
    except PonybenchError as exc:  # a bad input, named: the one place it becomes an exit code
        print(f"ponybench: error: {exc}", file=sys.stderr)
        return USAGE
    except BrokenPipeError:
        # The reader left (`| head`): silence the flush at exit, end like a SIGPIPE'd process.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE
    except Exception as exc:  # noqa: BLE001 - a bug must never read as "the gate failed" (exit 1)
        traceback.print_exc()
        print(
            f"ponybench: internal error (a bug; please report it with the traceback above): {exc!r}",
            file=sys.stderr,
        )
        return INTERNAL
    return code


if __name__ == "__main__":
    sys.exit(main())
