"""Flattening nested dicts into dotted keys and back."""


def flatten(data, sep="."):
    """``data`` with nested dicts turned into keys joined by ``sep``."""
    raise NotImplementedError


def unflatten(data, sep="."):
    """The nested dict whose flattened form is ``data``."""
    raise NotImplementedError
