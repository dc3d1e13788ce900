"""Arithmetic."""


def add_numbers(a, b):
    """a plus b."""
    return a + b


def double(x):
    return add_numbers(x, x)
