"""Date arithmetic on "YYYY-MM-DD" strings."""

import calendar
import datetime
import re


def _date(text):
    if not isinstance(text, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        raise ValueError(f"not a YYYY-MM-DD date: {text!r}")
    year, month, day = (int(part) for part in text.split("-"))
    return datetime.date(year, month, day)


def days_between(start, end):
    """Days from ``start`` to ``end``."""
    return (_date(end) - _date(start)).days


def weekdays_between(start, end):
    """Monday-to-Friday dates from ``start`` (included) to ``end`` (excluded)."""
    first, last = _date(start), _date(end)
    if last < first:
        raise ValueError("end is before start")
    weeks, extra = divmod((last - first).days, 7)
    count = weeks * 5
    for offset in range(extra):
        if (first + datetime.timedelta(days=offset)).weekday() < 5:
            count += 1
    return count


def add_months(date, months):
    """``date`` moved by ``months`` months."""
    day = _date(date)
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    last = calendar.monthrange(year, month)[1]
    return datetime.date(year, month, min(day.day, last)).isoformat()
