"""Number helpers."""


def is_even(n):
    """True when n is divisible by 2."""
    return n % 2 == 0


def is_prime(n):
    """True when n is a prime number."""
    if n < 2:
        return False
    factor = 2
    while factor * factor <= n:
        if n % factor == 0:
            return False
        factor += 1
    return True
