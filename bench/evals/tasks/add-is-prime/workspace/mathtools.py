"""Number helpers."""


def is_even(n):
    """True when n is divisible by 2."""
    return n % 2 == 0
