"""Sliding-window rate limiter for the API gateway.

Uses the sliding-window-counter approach: two counters per key (current and previous fixed
window) weighted by how much of the previous window still overlaps the sliding window. O(1)
memory per key instead of one timestamp per call.
"""

import math
import time


class RateLimiter:
    def __init__(self, limit, window, clock=time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        # key -> [window_index, count_in_current, count_in_previous]
        self._state = {}

    def allow(self, key):
        now = self.clock()
        index = math.floor(now / self.window)
        state = self._state.get(key)
        if state is None:
            state = [index, 0, 0]
            self._state[key] = state
        if state[0] != index:
            state[2] = state[1] if state[0] == index - 1 else 0
            state[1] = 0
            state[0] = index
        elapsed = now - index * self.window
        overlap = (self.window - elapsed) / self.window
        estimate = state[2] * overlap + state[1]
        if estimate < self.limit:
            state[1] += 1
            return True
        return False
