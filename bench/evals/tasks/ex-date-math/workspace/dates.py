"""Date arithmetic on "YYYY-MM-DD" strings."""


def days_between(start, end):
    """Days from ``start`` to ``end``."""
    raise NotImplementedError


def weekdays_between(start, end):
    """Monday-to-Friday dates from ``start`` (included) to ``end`` (excluded)."""
    raise NotImplementedError


def add_months(date, months):
    """``date`` moved by ``months`` months."""
    raise NotImplementedError
