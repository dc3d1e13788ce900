"""Allowing at most so many requests in a sliding window of time."""


class RateLimiter:
    """At most ``limit`` requests in any ``window`` seconds."""

    def __init__(self, limit, window):
        raise NotImplementedError

    def allow(self, now):
        raise NotImplementedError

    def remaining(self, now):
        raise NotImplementedError
