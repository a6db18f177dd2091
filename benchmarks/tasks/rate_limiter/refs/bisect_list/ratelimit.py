import bisect
import time


class RateLimiter:
    def __init__(self, limit, window, clock=time.monotonic):
        self.limit, self.window, self.clock = limit, window, clock
        self.allowed = {}

    def allow(self, key):
        now = self.clock()
        times = self.allowed.setdefault(key, [])
        del times[: bisect.bisect_right(times, now - self.window)]
        if len(times) < self.limit:
            times.append(now)
            return True
        return False
