"""plugin._freeze: what a benchmark session has loaded is out of the cyclic collector's sight,
and what an earlier session in the same process froze is collected when the next one starts."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from pytest_ponybench import plugin


class Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_a_frozen_cycle_is_left_alone_until_the_next_session_collects_it() -> None:
    node = Node()
    ref = weakref.ref(node)
    plugin._freeze()  # a session's configure: node is loaded
    assert gc.get_freeze_count() > 0
    del node
    gc.collect()
    assert ref() is not None  # out of the collector's sight
    plugin._freeze()  # the next session in this process (pytest run in-process)
    assert ref() is None


def test_what_is_made_after_the_freeze_is_collected_as_ever() -> None:
    plugin._freeze()
    node = Node()
    ref = weakref.ref(node)
    del node
    gc.collect()
    assert ref() is None
