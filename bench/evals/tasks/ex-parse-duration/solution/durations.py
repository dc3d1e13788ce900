"""Durations written as text, such as "1h30m"."""

import re

UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
ORDER = list(UNITS)


def parse_duration(text):
    """The number of seconds ``text`` stands for."""
    tokens = text.split()
    if not tokens:
        raise ValueError("empty duration")
    total, last = 0, -1
    for token in tokens:
        if not re.fullmatch(r"(?:[0-9]+[a-z])+", token):
            raise ValueError(f"not a duration: {token!r}")
        for number, unit in re.findall(r"([0-9]+)([a-z])", token):
            if unit not in UNITS:
                raise ValueError(f"unknown unit {unit!r}")
            if ORDER.index(unit) <= last:
                raise ValueError(f"unit {unit!r} is out of order or repeated")
            last = ORDER.index(unit)
            total += int(number) * UNITS[unit]
    return total


def format_duration(seconds):
    """The shortest text for ``seconds``."""
    if isinstance(seconds, bool) or not isinstance(seconds, int):
        raise TypeError("seconds must be an int")
    if seconds < 0:
        raise ValueError("a duration cannot be negative")
    if seconds == 0:
        return "0s"
    parts = []
    for unit, size in UNITS.items():
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count}{unit}")
    return "".join(parts)
