"""Counting values into equal-width bins."""


def bin_counts(values, low, high, bins):
    """How many of ``values`` fall into each of ``bins`` bins from ``low`` to ``high``."""
    raise NotImplementedError
