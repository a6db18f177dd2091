import time
from collections import defaultdict, deque


class RateLimiter:
    """At most `limit` allowed calls per key in any sliding `window` seconds."""

    def __init__(self, limit, window, clock=time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._calls = defaultdict(deque)

    def allow(self, key):
        now = self.clock()
        calls = self._calls[key]
        while calls and calls[0] <= now - self.window:
            calls.popleft()
        if len(calls) >= self.limit:
            return False
        calls.append(now)
        return True
