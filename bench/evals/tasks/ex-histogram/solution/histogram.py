"""Counting values into equal-width bins."""


def bin_counts(values, low, high, bins):
    """How many of ``values`` fall into each of ``bins`` bins from ``low`` to ``high``."""
    if bins < 1:
        raise ValueError("bins must be at least 1")
    if not low < high:
        raise ValueError("low must be less than high")
    counts = [0] * bins
    width = (high - low) / bins
    for value in values:
        if value < low or value > high:
            continue
        index = min(int((value - low) / width), bins - 1)
        counts[index] += 1
    return counts
