"""Where a session's model requests go: a seat at the gateway, and the upstream behind it.

An offline model's session is registered with the offline endpoint (its scripted agents) and
its seat's upstream is that cell's URL; a request for any other model from inside an offline
cell (a plugin's hook calling `claude -p` with the default model) is played by `SIDE_MODEL`,
never sent out. A live model's seat goes to the Anthropic API with the harness's credential.
The cell, the judge and the pre-flight open their sessions here alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_ponybench.core.endpoint import Endpoint, served_by
from pytest_ponybench.gateway.server import BudgetGate, Gateway, Seat, Ticket
from pytest_ponybench.gateway.upstream import Upstream

if TYPE_CHECKING:
    from pytest_ponybench.core.tasks import Task

__all__ = ["NoCredential", "Route", "Routes", "SIDE_MODEL"]

SIDE_MODEL = "offline-idle"  # plays an offline cell's side calls: a short answer, no tools
OFFLINE_TIMEOUT_S = 150.0  # the offline server answers at once, or hangs on purpose


class NoCredential(RuntimeError):
    """A live model was asked for, and the harness holds no credential to send upstream."""


@dataclass(frozen=True)
class Route:
    """One open session's seat."""

    session_id: str
    ticket: Ticket
    offline: bool
    model: str


@dataclass(frozen=True)
class Routes:
    """The gateway, the offline endpoint, the live upstream, and what every seat allows."""

    gateway: Gateway
    endpoint: Endpoint | None = None
    live: Upstream | None = None
    models: tuple[str, ...] | None = None  # None: any model (a caller that knows no grid)
    budget: BudgetGate | None = None

    def open(
        self,
        session_id: str,
        model: str,
        *,
        workspace: Path,
        requests_log: Path,
        log: Path | None,
        task: Task | None = None,
        kind: str = "cell",
        budget: bool = True,
    ) -> Route:
        """A seat for one session of model (an offline one registered with the endpoint)."""
        offline = served_by(self.endpoint, model)
        if offline:
            assert self.endpoint is not None
            url = self.endpoint.open(session_id, workspace, requests_log, task)
            upstream = Upstream(url, timeout_s=OFFLINE_TIMEOUT_S)
        elif self.live is None:
            raise NoCredential(
                f"the live model {model} needs a credential: set ANTHROPIC_API_KEY or log in with `claude`"
            )
        else:
            upstream = self.live
        ticket = self.gateway.open(
            session_id,
            upstream,
            kind=kind,
            models=None if offline else self.models,
            side_model=SIDE_MODEL if offline else None,
            log=log,
            budget=self.budget if budget else None,
        )
        return Route(session_id, ticket, offline, model)

    def turn(self, route: Route, turn: int) -> None:
        """A conversation's next session plays this turn (an offline cell's agents are told)."""
        if route.offline and self.endpoint is not None:
            self.endpoint.turn(route.session_id, turn)

    def seat(self, route: Route) -> Seat | None:
        """The open seat, with what it has metered so far (None once closed)."""
        return self.gateway.seat(route.ticket.token)

    def close(self, route: Route) -> Seat:
        """The seat closed (its token refused from now on), the endpoint released."""
        seat = self.gateway.close(route.ticket)
        if route.offline and self.endpoint is not None:
            self.endpoint.close(route.session_id)
        return seat


def allowed_models(models: Sequence[str], judge: str | None) -> tuple[str, ...]:
    """What a live seat may ask for: the run's models, its judge, and haiku (the CLI's own
    small model for its side requests)."""
    return tuple(dict.fromkeys([*models, *([judge] if judge else []), "haiku"]))
