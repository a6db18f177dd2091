"""Sliding-window rate limiter for the API gateway."""

import time
from collections import defaultdict


class RateLimiter:
    def __init__(self, limit, window, clock=time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self.history = defaultdict(list)

    def allow(self, key):
        now = self.clock()
        recent = [t for t in self.history[key] if now - t < self.window]
        recent.append(now)
        self.history[key] = recent
        return len(recent) <= self.limit
