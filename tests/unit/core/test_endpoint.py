"""Tests for `core/endpoint.py`: which models a session runs on an endpoint of this package, and
that an offline model never falls through to the real API."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_ponybench.core.endpoint import OFFLINE_PREFIX, is_offline, served_by
from pytest_ponybench.core.tasks import Task


class Serving:
    """An endpoint that owns the names it is given (the Endpoint protocol's `serves`)."""

    def __init__(self, *models: str) -> None:
        self.models = set(models)

    def serves(self, model: str) -> bool:
        return model in self.models

    def open(self, session_id: str, workspace: Path, log: Path, task: Task | None = None) -> str:
        return "http://127.0.0.1:1"

    def turn(self, session_id: str, turn: int) -> None:
        pass

    def close(self, session_id: str) -> None:
        pass


@pytest.mark.parametrize(
    ("model", "offline"),
    [
        ("offline-reference", True),
        ("offline-no-such-model", True),
        ("sonnet", False),
        ("my-offline-model", False),
    ],
)
def test_the_offline_models_are_told_by_their_prefix(model: str, offline: bool) -> None:
    assert is_offline(model) is offline and model.startswith(OFFLINE_PREFIX) is offline


def test_a_model_the_endpoint_owns_is_served_by_it_and_a_live_one_by_the_api() -> None:
    endpoint = Serving("offline-reference", "local-model")
    assert served_by(endpoint, "offline-reference") and served_by(endpoint, "local-model")
    assert not served_by(endpoint, "sonnet") and not served_by(None, "sonnet")


@pytest.mark.parametrize("endpoint", [None, Serving("offline-reference")])
def test_an_offline_model_nobody_serves_is_a_harness_fault_never_a_call_to_the_api(
    endpoint: Serving | None,
) -> None:
    with pytest.raises(
        RuntimeError, match="the offline model offline-coin needs the offline server, and none was given"
    ):
        served_by(endpoint, "offline-coin")
