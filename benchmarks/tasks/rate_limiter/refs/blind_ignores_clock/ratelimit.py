"""Sliding-window rate limiter for the API gateway."""

import threading
import time
from collections import defaultdict, deque


class RateLimiter:
    def __init__(self, limit, window, clock=time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._calls = defaultdict(deque)
        self._lock = threading.Lock()

    def allow(self, key):
        with self._lock:
            now = time.monotonic()
            calls = self._calls[key]
            while calls and now - calls[0] >= self.window:
                calls.popleft()
            if len(calls) >= self.limit:
                return False
            calls.append(now)
            return True
