"""The dry-run role (`--dry-run`): the grid, the pre-flight a paid run would do, and the price,
then stop. Registered instead of the controller: nothing is run, spent or written (but the
estimate's cache of offline measurements), and no credential is needed."""

from __future__ import annotations

from collections import Counter

import pytest

from pytest_ponybench.agents import registry
from pytest_ponybench.analysis import estimate
from pytest_ponybench.core.graders.outcome import JUDGE_TYPES
from pytest_ponybench.roles import pricing
from pytest_ponybench.roles.plan import Plan

__all__ = ["DryRun", "describe"]


def describe(plan: Plan) -> list[str]:
    """The grid and the pre-flight, in words."""
    s = plan.settings
    cells = plan.cells
    own = plan.runs.own if plan.runs is not None else {}
    runs = f"{s.runs} runs" + (
        f" ({', '.join(f'{t}: {n}' for t, n in own.items())}, their task.toml's runs)" if own else ""
    )
    lines = [
        f"grid: {len(plan.tasks)} tasks x {len(plan.arms)} arms x {len(s.models)} models x {runs}"
        f" = {len(cells)} cells",
        f"  per task: {len(cells) // max(1, len(plan.tasks))} cells; "
        + "; ".join(f"{arm}: {n}" for arm, n in Counter(c.arm.name for c in cells).items())
        + "; "
        + "; ".join(f"{model}: {n}" for model, n in Counter(c.model for c in cells).items()),
    ]
    live = list(plan.live_models)
    refs = sum(len(t.references) for t in plan.tasks if t.scored)
    judged = [t for t in plan.tasks if any(g.type in JUDGE_TYPES for g in t.graders)]
    if judged:
        n = sum(1 for c in cells if c.task in judged)
        votes: Counter[int] = Counter(
            r for t in judged if (r := t.judge_runs or s.judge_runs) != s.judge_runs
        )
        mine = ", ".join(f"{r} in {m} task(s)" for r, m in sorted(votes.items()))
        lines.append(
            f"judge: {plan.judge_model} on the {n} cells of {len(judged)} task(s) with judge graders, "
            f"asked {s.judge_runs} time(s) per grader"
            + (f" ({mine}, their task.toml's judge_runs)" if mine else "")
        )
    if live or s.preflight:
        checks = [f"the selftest of {len(plan.tasks)} tasks ({refs} references)"]
        checks.append(f"the activation of {len(plan.arms)} arm(s) in one offline session each")
        if live:
            checks.append(f"a free token count against the API for {', '.join(live)}")
        if judged and plan.judge_model in live:
            checks.append(f"{plan.judge_model} judging the references of {len(judged)} judged task(s)")
        lines.append("pre-flight before the first cell: " + "; ".join(checks))
    else:
        lines.append("pre-flight: none (every model is offline; --preflight forces it)")
    return lines


class DryRun:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Before xdist starts a worker or anything is collected."""
        plan = self.plan
        tr = session.config.pluginmanager.get_plugin("terminalreporter")
        version = registry.get().version(plan.claude) if plan.claude else None
        lines = [*describe(plan), "estimate (list prices; prompt-cache writes and reads included):"]
        lines += estimate.render(pricing.lines(plan, version), plan.settings.budget_usd)
        for line in ["ponybench dry run: nothing is run, spent or written", *lines]:
            if tr is not None:
                tr.write_line(line)
        pytest.exit("ponybench dry run done", returncode=pytest.ExitCode.OK)
