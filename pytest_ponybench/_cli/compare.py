"""RUN: every arm against --baseline within one run. BASE_RUN CAND_RUN: each arm both runs have, the
candidate run's cells against the base run's. A run may also be a `claude plugin eval`
aggregate-result.json (cases as tasks, the plugin's runs as its arm, the runs without it as
baseline)."""

# (This docstring is `compare --help`'s description.) The regression gate of --fail-on lives here
# too: exit 1 when a rule fails or measured nothing; 2 when the numbers a rule needs are not
# measurements, or when nothing can be compared at all: it never prints nothing.

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_ponybench._cli.common import (
    GATE_FAILED,
    OK,
    USAGE,
    Subparsers,
    baseline_option,
    command,
    direction_option,
    emit,
    label,
    load_records,
    markdown_option,
    note,
    procedure_of,
    procedure_options,
    require_records,
    required_baseline,
    rerun_command,
    run_verdicts,
    write_html,
)
from pytest_ponybench.analysis import agents, health, stats, triggers, verdict
from pytest_ponybench.core.records import Record
from pytest_ponybench.errors import PonybenchError

__all__ = ["add", "apply_gate", "gate_rules", "run"]


def add(sub: Subparsers) -> None:
    c = command(
        sub,
        "compare",
        run,
        __doc__,
        help="verdict: arms within one run, or one run against another",
        epilog="RULES: comma-separated metric:margin, e.g. correct:-5pp,loc:+10%,cost:+20%; "
        "metrics pass, correct, safe (pp) and loc, cost, tokens, time (%). Exit 1 only "
        "when an interval lies wholly beyond a margin on the worse side. arm_errors (no margin): "
        "exit 1 when a cell's arm failed in its session (a hook crashed, a server or skill did not load).",
    )
    c.add_argument("runs", nargs="+", metavar="RUN", help="RUN, or BASE_RUN CAND_RUN")
    baseline_option(c, "with one run: the baseline arm (default: baseline)")
    c.add_argument(
        "--fail-on", metavar="RULES", help="exit 1 when the candidate is worse than a margin with confidence"
    )
    markdown_option(c)
    c.add_argument("--html", metavar="PATH", help="also write the comparison as an HTML report at PATH")
    procedure_options(c)
    direction_option(c)


def run(args: argparse.Namespace) -> int:
    if len(args.runs) > 2:
        raise PonybenchError(
            f"compare takes one run (arms within it) or two runs (BASE_RUN CAND_RUN), got {len(args.runs)}"
        )
    effect_rules, trigger_rules, health_rule = gate_rules(args.fail_on)
    if len(args.runs) == 1:
        rows, records, heading = _within_one_run(args)
        rerun = rerun_command(args.runs[0])
    else:
        rows, records, heading = _between_two_runs(args)
        rerun = f"a resume of each run ({', '.join(rerun_command(r) for r in args.runs)})"
    if not rows:
        raise PonybenchError(
            f"nothing to compare: {verdict.why_no_verdict(records, _baseline_of(rows, args))}"
        )
    if args.markdown:
        emit(verdict.render_rows_markdown(rows, records, heading=heading, rerun=rerun))
        if cross := agents.render_cross_agent_markdown(rows):
            emit(cross)
    else:
        emit(verdict.render_rows(rows, records, rerun=rerun))
        if cross := agents.render_cross_agent(rows):
            emit(cross)
    if args.html is not None:
        note(f"report: {write_html(args.runs, Path(args.html), args.baseline or 'baseline')}")
    if args.fail_on is None:
        return OK
    return apply_gate(args.fail_on, effect_rules, trigger_rules, health_rule, rows, records, args.markdown)


def _baseline_of(rows: list[stats.ArmVerdict], args: argparse.Namespace) -> str:
    return rows[0]["baseline"] if rows else (args.baseline or "baseline")


def gate_rules(rules: str | None) -> tuple[str, list[tuple[str, float]], bool]:
    """--fail-on split into the rules on effects (stats.parse_gate checks them), those on an
    arm's trigger accuracy (missed_fire:N%, false_fire:N%) and whether arm_errors is one; a
    malformed rule is an error here, before any run is read."""
    if rules is None:
        return "", [], False
    effect, triggered = [], []
    health_rule = False
    for raw in rules.split(","):
        name, _, margin = raw.strip().partition(":")
        if name.strip().lower() == health.GATE_RULE:
            if margin.strip():
                raise PonybenchError(
                    f"--fail-on: bad gate rule {raw.strip()!r}: {health.GATE_RULE} takes no margin "
                    "(any cell whose arm failed fails it)"
                )
            health_rule = True
            continue
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
        if not stats.parse_gate(effect_rules) and not triggered and not health_rule:
            raise PonybenchError(f"--fail-on {rules!r} holds no rule")
    except ValueError as exc:
        raise PonybenchError(f"--fail-on: {exc}") from exc
    return effect_rules, triggered, health_rule


def _within_one_run(args: argparse.Namespace) -> tuple[list[stats.ArmVerdict], list[Record], str]:
    run = args.runs[0]
    records = load_records(run)
    require_records(records, run)
    baseline = required_baseline(records, args.baseline, run)
    arms = verdict.arms_of(records)
    if len(arms) < 2:
        raise PonybenchError(
            f"{run} has only the arm {baseline!r}: nothing to compare within it "
            f"(two runs: ponybench compare BASE_RUN CAND_RUN)"
        )
    primary, family = procedure_of(args, records, run)
    found = run_verdicts(records, run, baseline, primary, family, args.direction)
    for line in found.looks:
        note(line)
    return found.rows, found.records, f"ponybench verdict: {run}, arms vs {baseline}"


def _between_two_runs(args: argparse.Namespace) -> tuple[list[stats.ArmVerdict], list[Record], str]:
    if args.baseline is not None:
        raise PonybenchError(
            "--baseline picks an arm within one run; with two runs BASE_RUN is the baseline, arm by arm"
        )
    base_run, cand_run = args.runs
    # Each model named with its agent over both runs at once, so that a run of claude alone
    # still meets the claude cells of a run of several agents.
    raw_base, raw_cand = load_records(base_run, per_agent=False), load_records(cand_run, per_agent=False)
    named = agents.by_agent([*raw_base, *raw_cand])
    base, cand = named[: len(raw_base)], named[len(raw_base) :]
    require_records(base, base_run)
    require_records(cand, cand_run)
    base_label, cand_label = label(base_run), label(cand_run)
    if base_label == cand_label:
        base_label, cand_label = "base", "candidate"
    primary, family = procedure_of(args, [*base, *cand], f"{base_run} or {cand_run}")
    try:
        rows, records = verdict.compare_verdicts(
            base,
            cand,
            base_label=base_label,
            cand_label=cand_label,
            primary=primary,
            family=family,
            direction=args.direction or stats.TWO_SIDED,
        )
    except ValueError as exc:
        raise PonybenchError(str(exc)) from exc
    for text in verdict.grid_notes(base, cand, base_label=base_label, cand_label=cand_label):
        note(f"{text}; compared on the shared grid only")
    return rows, records, f"ponybench verdict: {cand_label} vs {base_label}"


def apply_gate(
    rules: str,
    effect_rules: str,
    trigger_rules: list[tuple[str, float]],
    health_rule: bool,
    rows: list[stats.ArmVerdict],
    records: list[Record],
    md: bool,
) -> int:
    """Test every rule; exit 1 when one fails or measured nothing, else 0."""
    outcomes = verdict.gate_report(rows, effect_rules) if effect_rules else []
    print()
    if len(stats.parse_gate(effect_rules)) + len(trigger_rules) + health_rule > 1:
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
    # No measurement at all (an arm or the baseline without a valid cell) must not read as green;
    # where the numbers were there but are not measurements, the data is at fault: exit 2.
    blind = [o for o in outcomes if o.effect is None or o.effect.n_tasks == 0]
    malformed = [(o, why) for o in blind if (why := _malformed(o, records)) is not None]
    if trigger_rules and not fired:
        blind_triggers = ["no cell declares expect_fire with an arm that has a skill or hook to fire"]
    else:
        blind_triggers = []
    if malformed:
        for f in failures:
            print(f"- **FAIL** {f.describe()}" if md else f"FAIL {f.describe()}")
        for o, why in malformed:
            said = (
                f"{o.rule} ({o.row['arm']} vs {o.row['baseline']}, {o.row['model']}): nothing measured, {why}"
            )
            print(f"- **NOT MEASURED** {said}" if md else f"NOT MEASURED {said}")
        print(
            "\n**Gate not decided:** numbers that are not measurements (exit 2)"
            if md
            else "gate not decided: numbers that are not measurements (exit 2: fix the data)"
        )
        return USAGE
    unhealthy, observed = health.gate_fails(records) if health_rule else ([], True)
    if not observed:
        blind_triggers.append(f"{health.GATE_RULE} (no record says its arm's health)")
    trigger_fails += [(health.GATE_RULE, text) for text in unhealthy]
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


def _malformed(o: verdict.GateOutcome, records: list[Record]) -> str | None:
    """Why a rule's metric had no paired task when its cells did carry numbers for it, none of
    them a measurement (negative, not finite, out of range): a data error, not a failed gate."""
    metric = stats.parse_gate(o.rule)[0].metric
    bad: dict[str, int] = {}
    for rec in records:
        if str(rec.get("model")) != o.row["model"] or str(rec.get("arm")) not in (
            o.row["arm"],
            o.row["baseline"],
        ):
            continue
        why = stats.bad_number(rec, metric)
        if why is not None:
            bad[why] = bad.get(why, 0) + 1
    if not bad:
        return None
    listed = ", ".join(f"{n} {why}" for why, n in sorted(bad.items()))
    return f"its numbers are not measurements ({listed})"


def _blind(o: verdict.GateOutcome) -> str:
    return f"{o.rule} ({o.row['arm']} vs {o.row['baseline']}, {o.row['model']})"
