"""Turning and mirroring grids of characters."""


def rotate_clockwise(rows):
    """The grid ``rows`` turned a quarter turn to the right."""
    raise NotImplementedError


def rotate_counterclockwise(rows):
    """The grid ``rows`` turned a quarter turn to the left."""
    raise NotImplementedError


def flip_horizontal(rows):
    """The grid ``rows`` mirrored left to right."""
    raise NotImplementedError
