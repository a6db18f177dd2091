"""The dry-run role (`--dry-run`): the grid, the pre-flight a paid run would do, each arm's
activation check (offline and cheap: one line per arm, unless --skip-preflight), and the price,
then stop. Registered instead of the controller: nothing is run, spent or written (but the
estimate's cache of offline measurements), and no credential is needed."""

from __future__ import annotations

from collections import Counter
from contextlib import ExitStack

import pytest

from pytest_ponybench.agents import registry
from pytest_ponybench.analysis import estimate
from pytest_ponybench.core.graders.outcome import JUDGE_TYPES
from pytest_ponybench.gateway.routes import Routes
from pytest_ponybench.gateway.server import shared
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.plan import preflight, pricing
from pytest_ponybench.plan.plan import Plan
from pytest_ponybench.plan.proofs import Proofs
from pytest_ponybench.plan.sessions import routes_of
from pytest_ponybench.roles.proofcache import proofs_of

__all__ = ["DryRun", "activation", "describe"]


def describe(plan: Plan) -> list[str]:
    """The grid and the pre-flight, in words."""
    s = plan.settings
    cells = plan.cells
    own = plan.runs.own if plan.runs is not None else {}
    runs = f"{s.runs} runs" + (
        f" ({', '.join(f'{t}: {n}' for t, n in own.items())}, their task.toml's runs)" if own else ""
    )
    several = len(s.agents) > 1
    by_agent = Counter(c.agent for c in cells)
    agents = f" x {len(s.agents)} agents" if several else ""
    lines = [
        f"grid: {len(plan.tasks)} tasks x {len(plan.arms)} arms x {len(s.models)} models{agents} x {runs}"
        f" = {len(cells)} cells",
        f"  per task: {len(cells) // max(1, len(plan.tasks))} cells; "
        + "; ".join(f"{arm}: {n}" for arm, n in Counter(c.arm.name for c in cells).items())
        + "; "
        + "; ".join(f"{model}: {n}" for model, n in Counter(c.model for c in cells).items())
        + ("; " + "; ".join(f"{a}: {n}" for a, n in by_agent.items()) if several else ""),
    ]
    if s.agents != ("claude",):
        lines.append(f"agents: {', '.join(s.agents)} (each agent's arms against its own baseline)")
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
    if s.skip_preflight:
        lines.append("pre-flight: none (--skip-preflight)")
    elif live or s.preflight:
        checks = [f"the selftest of {len(plan.tasks)} tasks ({refs} references)"]
        per = f" per agent ({len(s.agents)})" if len(s.agents) > 1 else ""
        checks.append(f"the activation of {len(plan.arms)} arm(s) in one offline session each{per}")
        if live:
            checks.append(f"a free token count against the API for {', '.join(live)}")
        if judged and plan.judge_model in live:
            checks.append(f"{plan.judge_model} judging the references of {len(judged)} judged task(s)")
        lines.append("pre-flight before the first cell: " + "; ".join(checks))
    else:
        lines.append(
            "pre-flight: the activation of each arm in one offline session (every model is offline; "
            "--preflight adds the selftest and refuses a problem)"
        )
    return lines


def activation(plan: Plan, proofs: Proofs | None = None) -> list[str]:
    """Each arm's activation check through each agent of the grid, as the pre-flight runs it:
    one line per arm and agent (the offline server started only when an arm has something to
    check); a check kept in `proofs` is said again, and none is kept (a dry run writes nothing)."""
    agents = [(a, plan.binaries[a]) for a in plan.settings.agents if a in plan.binaries]
    with ExitStack() as stack:
        started: list[Routes] = []

        def routes() -> Routes:
            if not started:
                server = stack.enter_context(OfflineServer())
                started.append(routes_of(plan, shared(), OfflineEndpoint(server)))
            return started[0]

        _results, lines = preflight.activation_lines(
            plan.arms, agents, routes, baseline=False, note=preflight.REFUSED_NOTE, proofs=proofs
        )
    return [f"pre-flight: {line}" for line in lines]


class DryRun:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Before xdist starts a worker or anything is collected."""
        plan = self.plan
        tr = session.config.pluginmanager.get_plugin("terminalreporter")
        versions = {a: registry.get(a).version(b) for a, b in plan.binaries.items()}
        lines = describe(plan)
        if plan.binaries and not plan.settings.skip_preflight:
            lines += activation(plan, proofs_of(session.config, keep=False))
        lines.append("estimate (list prices; prompt-cache writes and reads included):")
        lines += estimate.render(pricing.lines(plan, versions), plan.settings.budget_usd)
        for line in ["ponybench dry run: nothing is run, spent or written", *lines]:
            if tr is not None:
                tr.write_line(line)
        pytest.exit("ponybench dry run done", returncode=pytest.ExitCode.OK)
