"""Allowing at most so many requests in a sliding window of time."""

from collections import deque


class RateLimiter:
    """At most ``limit`` requests in any ``window`` seconds."""

    def __init__(self, limit, window):
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError("limit must be an int of at least 1")
        if isinstance(window, bool) or not isinstance(window, (int, float)) or window <= 0:
            raise ValueError("window must be a number above 0")
        self.limit = limit
        self.window = window
        self._allowed = deque()
        self._last = None

    def _counting(self, now):
        return sum(1 for t in self._allowed if now - t < self.window)

    def allow(self, now):
        if self._last is not None and now < self._last:
            raise ValueError("time went backwards")
        self._last = now
        while self._allowed and now - self._allowed[0] >= self.window:
            self._allowed.popleft()
        if len(self._allowed) >= self.limit:
            return False
        self._allowed.append(now)
        return True

    def remaining(self, now):
        return max(self.limit - self._counting(now), 0)
