"""Where a session's model is served when it is not the real API.

The session wing runs claude against a base URL and never imports the server behind it: the
roles hand it an `Endpoint` (the offline server's adapter, `offline.endpoint.OfflineEndpoint`),
or none for a run of paid models only.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pytest_ponybench.core.tasks import Task

__all__ = ["OFFLINE_PREFIX", "Endpoint", "is_offline", "served_by", "split_hold"]

# Model names this package serves itself; a session never sends one to the real API.
OFFLINE_PREFIX = "offline-"


def is_offline(model: str) -> bool:
    """True for the offline models' names (known or not: an unknown one gets an error)."""
    return model.startswith(OFFLINE_PREFIX)


_HOLD_RE = re.compile(r"^(offline-[A-Za-z0-9-]+)@(\d+(?:\.\d+)?)s$")


def split_hold(model: str) -> tuple[str, float | None]:
    """`offline-reference@20s` -> ("offline-reference", 20.0); other names come back as they are."""
    match = _HOLD_RE.match(model)
    return (match[1], float(match[2])) if match else (model, None)


class Endpoint(Protocol):
    def serves(self, model: str) -> bool:
        """Whether this endpoint owns the model's name (it then answers for it, or errs)."""
        ...

    def open(self, session_id: str, workspace: Path, log: Path, task: Task | None = None) -> str:
        """Start serving one session that works in `workspace` (absolute), logging its requests
        to `log`; a task's references are what the scripted agents write. Returns the base URL."""
        ...

    def turn(self, session_id: str, turn: int) -> None:
        """The turn of its conversation the session's next run plays (1: prompt.md's); its
        scripted agents answer that turn."""
        ...

    def close(self, session_id: str) -> None:
        """Stop serving the session (idempotent)."""
        ...


def served_by(endpoint: Endpoint | None, model: str) -> bool:
    """Whether a model runs on the given endpoint rather than on the real API; an offline
    model with no endpoint to serve it is a harness fault, never a call to the real API."""
    if endpoint is not None and endpoint.serves(model):
        return True
    if is_offline(model):
        raise RuntimeError(f"the offline model {model} needs the offline server, and none was given")
    return False
