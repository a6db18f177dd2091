import importlib

import pytest


def load():
    try:
        return importlib.import_module("ratelimit")
    except Exception as exc:
        pytest.fail(f"could not import ratelimit.py: {exc!r}")


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def play(limit, window, script, key="k"):
    """script: (time, expected) pairs; fails with the first call that answered wrong."""
    clock = FakeClock()
    limiter = load().RateLimiter(limit, window, clock=clock)
    history = []
    for t, expected in script:
        clock.now = t
        got = limiter.allow(key)
        history.append(f"t={t}: {got}")
        assert got is expected, (
            f"RateLimiter(limit={limit}, window={window}): allow() at t={t} should be {expected}, "
            f"got {got!r} (calls so far: {', '.join(history)})")
    return limiter, clock


def test_limit_within_window():
    play(3, 10, [(0, True), (1, True), (2, True), (3, False), (9.9, False)])


def test_call_exactly_window_ago_no_longer_counts():
    play(2, 10, [(0, True), (1, True), (2, False), (10, True), (10.5, False), (11, True)])


def test_no_burst_across_a_window_boundary():
    play(2, 10, [(9, True), (9.5, True), (10.1, False), (15, False), (19, True), (19.2, False),
                 (19.5, True)])


def test_denied_calls_are_not_recorded():
    play(2, 10, [(0, True), (1, True), (5, False), (6, False), (10, True), (11, True)])


def test_keys_are_independent():
    clock = FakeClock()
    limiter = load().RateLimiter(1, 60, clock=clock)
    assert limiter.allow("alice") is True, "the first call for alice should be allowed"
    assert limiter.allow("bob") is True, "bob's first call should be allowed even though alice used her quota"
    assert limiter.allow("alice") is False, "alice's second call within the window should be denied"


def test_default_clock():
    limiter = load().RateLimiter(1, 60)
    assert limiter.allow("x") is True, "with the default clock, the first call should be allowed"
    assert limiter.allow("x") is False, "with the default clock, a second call right away should be denied"
