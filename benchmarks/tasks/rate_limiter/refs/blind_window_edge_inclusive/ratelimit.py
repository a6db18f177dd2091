"""Sliding-window rate limiter for the API gateway."""

import time
from collections import defaultdict, deque
from typing import Callable, Deque, Dict, Hashable


class RateLimiter:
    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._calls: Dict[Hashable, Deque[float]] = defaultdict(deque)

    def allow(self, key: Hashable) -> bool:
        now = self.clock()
        calls = self._calls[key]
        # Drop calls that fell out of the window.
        while calls and calls[0] < now - self.window:
            calls.popleft()
        if len(calls) < self.limit:
            calls.append(now)
            return True
        return False
