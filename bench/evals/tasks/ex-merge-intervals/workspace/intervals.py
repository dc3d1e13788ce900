"""Merging overlapping intervals."""


def merge_intervals(intervals):
    """The intervals with overlapping ones merged, sorted by start."""
    raise NotImplementedError
