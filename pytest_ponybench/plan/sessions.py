"""What every session of a run is handed from its plan: the routes of its model requests and
how its judge graders are asked (the cells', the pre-flight's and the estimate's alike)."""

from __future__ import annotations

from pathlib import Path

from pytest_ponybench.core.endpoint import Endpoint
from pytest_ponybench.gateway import upstream
from pytest_ponybench.gateway.routes import Routes, allowed_models
from pytest_ponybench.gateway.server import BudgetGate, Gateway
from pytest_ponybench.plan.plan import Plan
from pytest_ponybench.session.judge import Judging

__all__ = ["JUDGE_TIMEOUT_S", "judging_of", "routes_of"]


JUDGE_TIMEOUT_S = 180.0  # one judge call: a single turn without tools


def routes_of(
    plan: Plan, gateway: Gateway, endpoint: Endpoint | None, budget: BudgetGate | None = None
) -> Routes:
    """Where this run's sessions send their model requests: the gateway, the offline endpoint,
    the API with the harness's own credential, the models a seat allows, the run's budget."""
    judge = plan.judge_model if plan.judged else None
    return Routes(
        gateway,
        endpoint,
        upstream.from_environment(),
        allowed_models(plan.settings.models, judge),
        budget,
    )


def judging_of(plan: Plan, routes: Routes, hide: tuple[Path, ...]) -> Judging | None:
    """How this run's judge graders are asked; None when no selected task declares one."""
    if not plan.judged:
        return None
    assert plan.claude is not None  # resolved by the plan whenever a task is judged
    s = plan.settings
    return Judging(
        claude=plan.claude,
        model=plan.judge_model,
        routes=routes,
        runs=s.judge_runs,
        timeout_s=min(s.cell_timeout, JUDGE_TIMEOUT_S),
        hide=hide,
        max_budget_usd=s.max_budget_usd,
        retries=s.retries,
    )
