"""Turning and mirroring grids of characters."""


def _check(rows):
    if any(len(row) != len(rows[0]) for row in rows):
        raise ValueError("the rows are not all the same length")


def rotate_clockwise(rows):
    """The grid ``rows`` turned a quarter turn to the right."""
    _check(rows)
    if not rows:
        return []
    return ["".join(row[column] for row in reversed(rows)) for column in range(len(rows[0]))]


def rotate_counterclockwise(rows):
    """The grid ``rows`` turned a quarter turn to the left."""
    _check(rows)
    if not rows:
        return []
    return ["".join(row[column] for row in rows) for column in reversed(range(len(rows[0])))]


def flip_horizontal(rows):
    """The grid ``rows`` mirrored left to right."""
    _check(rows)
    return [row[::-1] for row in rows]
