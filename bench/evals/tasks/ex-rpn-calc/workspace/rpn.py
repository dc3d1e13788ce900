"""Reverse Polish notation arithmetic."""


def evaluate(expression):
    """The value of the RPN ``expression``."""
    raise NotImplementedError
