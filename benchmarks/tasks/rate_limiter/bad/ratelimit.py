import time


class RateLimiter:
    """At most `limit` allowed calls per key in each `window` seconds."""

    def __init__(self, limit, window, clock=time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._counts = {}

    def allow(self, key):
        bucket = (key, int(self.clock() // self.window))
        count = self._counts.get(bucket, 0)
        if count >= self.limit:
            return False
        self._counts[bucket] = count + 1
        return True
